"""The Redis store's key layout and its atomic commit script.

Keys (`P` is the prefix, "coachloop" by default; `proj` a readable token of the project
path; `sid` the session id with unsafe characters escaped):

    P:{proj}:{sid}:state    hash  state (JSON), ver (optimistic version)
    P:{proj}:{sid}:events   list  timeline records (JSON with their id)
    P:sessions              hash  sid -> proj (finds a session by id alone)
    P:seq:event, P:seq:outbox     atomic counters (INCR) for record and outbox ids
    P:outbox                hash  id -> entry JSON;  P:outbox:pending  zset of unsent ids
    P:outbox:sent           hash  id -> sent time;   P:meta:{name}     periodic-job claims
    P:sessions:active       zset  sid scored by updated_at (paging newest first)
    P:{proj}:{sid}:life     zset  lifecycle records scored by event id
    P:life:saved            zset  "life key<TAB>event id" scored by saved time (retention)
"""

from __future__ import annotations

import hashlib
import re
from pathlib import PurePath

# KEYS: state, events, index, seq:event, outbox, outbox:pending, seq:outbox, active
# ARGV: expected ver, state json, sid, proj, updated_at, n events, events..., outbox...
COMMIT = """
local home = redis.call('HGET', KEYS[3], ARGV[3])
if home and home ~= ARGV[4] then return -1 end
local ver = redis.call('HGET', KEYS[1], 'ver') or '0'
if ver ~= ARGV[1] then return false end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'ver', tostring(tonumber(ver) + 1))
if not home then redis.call('HSET', KEYS[3], ARGV[3], ARGV[4]) end
redis.call('ZADD', KEYS[8], ARGV[5], ARGV[3])
local n = tonumber(ARGV[6])
local ids = {}
for i = 1, n do
  local id = redis.call('INCR', KEYS[4])
  redis.call('RPUSH', KEYS[2], '{"id":' .. id .. ',' .. string.sub(ARGV[6 + i], 2))
  ids[i] = id
end
local first = ids[1] or 0
for j = 7 + n, #ARGV do
  local oid = redis.call('INCR', KEYS[7])
  local body = '{"id":' .. oid .. ',"event_id":' .. first .. ',' .. string.sub(ARGV[j], 2)
  redis.call('HSET', KEYS[5], oid, body)
  redis.call('ZADD', KEYS[6], oid, oid)
end
return ids
"""
# Forget a session still idle since ARGV[2] (its state's updated_at, read here, in the
# same atomic step as the delete: a stop committed before it keeps the session; one after
# it starts a new one). KEYS: state, events, life, index, active. ARGV: sid, idle_before.
FORGET = """
local raw = redis.call('HGET', KEYS[1], 'state')
if not raw then return 0 end
local at = tonumber(cjson.decode(raw)['updated_at'])
if not at or at > tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
return 1
"""


def escape(part: str) -> str:
    """`part` safe inside a key: characters outside [A-Za-z0-9._@+-] as %XX."""
    return re.sub(r"[^A-Za-z0-9._@+-]", lambda m: f"%{ord(m.group()):02X}", part)


def project_token(project: str) -> str:
    """A short, readable, stable key part for a project path ("_" when there is none)."""
    if not project:
        return "_"
    name = escape(PurePath(project).name or "root")[:40]
    return f"{name}-{hashlib.sha1(project.encode()).hexdigest()[:8]}"
