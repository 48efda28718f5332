# make bench's python3 workload: a fixed amount of work (JSON, regular
# expressions, a sort); tests/bench/run.sh and busy-record.sh run it.
import json, re
d = [{"id": i, "name": "item%d" % i, "tags": [str(i % 7), str(i % 11)]}
     for i in range(150000)]
s = json.dumps(d)
back = json.loads(s)
nums = re.findall(r'"id": (\d+)', s)
back.sort(key=lambda x: (x["tags"][1], -x["id"]))
print(len(nums), back[0]["id"])
