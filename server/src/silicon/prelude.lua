-- silicon sandbox prelude (trusted code).
--
-- worker.mjs loads this chunk into every fresh Lua state, after the base, table, string, math, utf8 and
-- coroutine libraries and before any user code. It receives the bridge functions and the run description,
-- sandboxes the globals, runs the user's chunk and entry function, and returns the run envelope as one JSON
-- string. Everything the user could tamper with is captured in locals first, so changes user code makes to
-- globals or library tables never affect the host side.

local dbg, host_console, host_call, host_memstate, host_phase, host_schema,
      code, chunkname, entry, args_json, argc, max_result, host_names_json, memory_limit = ...

local _G = _G
local type, next, select, tostring, tonumber, error = type, next, select, tostring, tonumber, error
local rawget, rawset, rawequal, setmetatable = rawget, rawset, rawequal, setmetatable
local raw_pcall, raw_xpcall, raw_load = pcall, xpcall, load
local string, table, math, coroutine, utf8 = string, table, math, coroutine, utf8
local s_sub, s_find, s_format, s_gsub, s_byte = string.sub, string.find, string.format, string.gsub, string.byte
local s_char, s_match, s_gmatch, s_rep = string.char, string.match, string.gmatch, string.rep
local t_concat, t_sort, t_unpack = table.concat, table.sort, table.unpack
local m_type, m_huge, m_tointeger = math.type, math.huge, math.tointeger
local co_resume, co_close = coroutine.resume, coroutine.close
local u_char = utf8.char
local getinfo, dgetmetatable = dbg.getinfo, dbg.getmetatable
dbg = nil

local user_source = "=" .. chunkname
local MEMMSG = "not enough memory"
local MAX_DEPTH = 512
local MAX_MESSAGE = 65536 -- bytes per console message
local MAX_RENDER = 65536 -- bytes of a rendered breakpoint value / error object

--------------------------------------------------------------------------------------------------------------
-- helpers
--------------------------------------------------------------------------------------------------------------

-- Line of the innermost active frame that belongs to the user's chunk, starting `level` frames above the
-- caller of this function.
local function user_line(level)
  level = level + 1
  while true do
    local info = getinfo(level, "Sl")
    if not info then return nil end
    if info.source == user_source and info.currentline and info.currentline > 0 then
      return info.currentline
    end
    level = level + 1
  end
end

local ESC = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f", ["\n"] = "\\n", ["\r"] = "\\r",
  ["\t"] = "\\t" }
for i = 0, 31 do
  local c = s_char(i)
  if not ESC[c] then ESC[c] = s_format("\\u%04x", i) end
end
ESC["\127"] = "\\u007f"

local function quote(s)
  if s_find(s, '[%c"\\]') then s = s_gsub(s, '[%c"\\]', ESC) end
  return '"' .. s .. '"'
end

-- JSON text of a finite number, nil for NaN and infinities.
local function fmt_number(v)
  if m_type(v) == "integer" then return s_format("%d", v) end
  if v ~= v or v == m_huge or v == -m_huge then return nil end
  local s = s_format("%.14g", v)
  if tonumber(s) ~= v then s = s_format("%.17g", v) end
  return s
end

--------------------------------------------------------------------------------------------------------------
-- json
--------------------------------------------------------------------------------------------------------------

local NULL = setmetatable({}, {
  __name = "json.null",
  __tostring = function() return "null" end,
  __newindex = function() error("json.null is read-only", 2) end,
  __metatable = "json.null",
})
local ARRAY_MT = { __name = "json.array" }
local EncodeError = {}
-- JSON Schema keywords whose value is a list: an empty Lua table there becomes [] in extracted schemas.
local SCHEMA_ARRAY_KEYS = { required = true, enum = true, anyOf = true, oneOf = true, allOf = true,
  prefixItems = true, examples = true }

local function path_string(st)
  local parts = { st.root }
  for i = 1, st.depth do
    local k = st.path[i]
    if type(k) == "number" then
      parts[#parts + 1] = "[" .. s_format("%d", k) .. "]"
    elseif s_find(k, "^[%a_][%w_]*$") then
      parts[#parts + 1] = "." .. k
    else
      parts[#parts + 1] = "[" .. quote(k) .. "]"
    end
  end
  return t_concat(parts)
end

local function fail(st, what)
  error(setmetatable({ msg = what .. " at " .. path_string(st) }, EncodeError), 0)
end

local function add(st, s)
  local n = st.n + 1
  st.n = n
  st.buf[n] = s
  local b = st.bytes + #s
  st.bytes = b
  if b > st.limit then
    error(setmetatable({ msg = "larger than " .. s_format("%d", st.limit) .. " bytes", size = true }, EncodeError), 0)
  end
end

local function key_desc(k)
  local tk = type(k)
  if tk == "number" then return "numeric key " .. (fmt_number(k) or tostring(k)) end
  return "key of type " .. tk
end

local encode_value

local function encode_table(st, t, depth, key)
  if st.seen[t] then fail(st, "cyclic table") end
  if depth >= MAX_DEPTH then fail(st, "nesting deeper than " .. MAX_DEPTH .. " levels") end
  local count, maxk, has_str = 0, 0, false
  for k in next, t do
    local tk = type(k)
    if tk == "string" then
      has_str = true
    elseif m_type(k) == "integer" and k > 0 then
      if k > maxk then maxk = k end
    else
      fail(st, "table " .. key_desc(k) .. " cannot be represented in JSON")
    end
    count = count + 1
  end
  local marked = dgetmetatable(t) == ARRAY_MT
  if count == 0 then
    if marked or (st.schema and SCHEMA_ARRAY_KEYS[key]) then add(st, "[]") else add(st, "{}") end
    return
  end
  if has_str and maxk > 0 then fail(st, "table mixes array items and string keys") end
  if not has_str and maxk > 2 * count then
    fail(st, "sparse array (highest index " .. maxk .. ", " .. count .. " items)")
  end
  st.seen[t] = true
  local d = st.depth + 1
  st.depth = d
  if has_str then
    local keys, nk = {}, 0
    for k in next, t do
      nk = nk + 1
      keys[nk] = k
    end
    t_sort(keys)
    add(st, "{")
    for i = 1, nk do
      local k = keys[i]
      if i > 1 then add(st, ",") end
      add(st, quote(k))
      add(st, ":")
      st.path[d] = k
      encode_value(st, rawget(t, k), depth + 1, k)
    end
    add(st, "}")
  else
    add(st, "[")
    for i = 1, maxk do
      if i > 1 then add(st, ",") end
      st.path[d] = i
      encode_value(st, rawget(t, i), depth + 1, nil)
    end
    add(st, "]")
  end
  st.depth = d - 1
  st.seen[t] = nil
end

encode_value = function(st, v, depth, key)
  if v == nil or rawequal(v, NULL) then
    add(st, "null")
    return
  end
  local tv = type(v)
  if tv == "string" then
    add(st, quote(v))
  elseif tv == "number" then
    local s = fmt_number(v)
    if not s then fail(st, "NaN or infinite number") end
    add(st, s)
  elseif tv == "boolean" then
    add(st, v and "true" or "false")
  elseif tv == "table" then
    encode_table(st, v, depth, key)
  else
    fail(st, tv .. " value")
  end
end

-- Returns json, or nil + message (+ true when the size limit was the problem). Other errors (memory) propagate.
local function encode_with(root, v, limit, schema)
  local st = { buf = {}, n = 0, bytes = 0, limit = limit or m_huge, seen = {}, path = {}, depth = 0, root = root,
    schema = schema }
  local ok, e = raw_pcall(encode_value, st, v, 0, nil)
  if ok then return t_concat(st.buf, "", 1, st.n) end
  if dgetmetatable(e) == EncodeError then return nil, e.msg, e.size end
  error(e, 0)
end

local UNESC = { [34] = '"', [92] = "\\", [47] = "/", [98] = "\b", [102] = "\f", [110] = "\n", [114] = "\r",
  [116] = "\t" }

local function derr(msg, pos)
  error(setmetatable({ msg = msg .. " at position " .. pos }, EncodeError), 0)
end

local function skip(s, i)
  return s_find(s, "[^ \t\r\n]", i) or (#s + 1)
end

local function dstring(s, i)
  local parts, np = nil, 0
  local j = i + 1
  while true do
    local k = s_find(s, '["\\]', j)
    if not k then derr("unterminated string", i) end
    if s_byte(s, k) == 34 then
      if parts then
        np = np + 1
        parts[np] = s_sub(s, j, k - 1)
        return t_concat(parts, "", 1, np), k + 1
      end
      return s_sub(s, j, k - 1), k + 1
    end
    parts = parts or {}
    np = np + 1
    parts[np] = s_sub(s, j, k - 1)
    local c = s_byte(s, k + 1)
    if c == 117 then -- \uXXXX
      local hex = s_match(s, "^%x%x%x%x", k + 2)
      if not hex then derr("invalid unicode escape", k) end
      local cp = tonumber(hex, 16)
      local nxt = k + 6
      if cp >= 0xD800 and cp <= 0xDBFF then
        local lo = s_match(s, "^\\u(%x%x%x%x)", nxt)
        lo = lo and tonumber(lo, 16)
        if lo and lo >= 0xDC00 and lo <= 0xDFFF then
          cp = 0x10000 + (cp - 0xD800) * 0x400 + (lo - 0xDC00)
          nxt = nxt + 6
        else
          cp = 0xFFFD
        end
      elseif cp >= 0xDC00 and cp <= 0xDFFF then
        cp = 0xFFFD
      end
      np = np + 1
      parts[np] = u_char(cp)
      j = nxt
    else
      local e = c and UNESC[c]
      if not e then derr("invalid escape", k) end
      np = np + 1
      parts[np] = e
      j = k + 2
    end
  end
end

local decode_value

local function dnumber(s, i)
  local _, e = s_find(s, "^-?%d+", i)
  if not e then derr("unexpected character", i) end
  local _, e2 = s_find(s, "^%.%d+", e + 1)
  if e2 then e = e2 end
  _, e2 = s_find(s, "^[eE][-+]?%d+", e + 1)
  if e2 then e = e2 end
  return tonumber(s_sub(s, i, e)), e + 1
end

local function darray(s, i, depth)
  if depth >= MAX_DEPTH then derr("nesting deeper than " .. MAX_DEPTH .. " levels", i) end
  local t, n = setmetatable({}, ARRAY_MT), 0
  i = skip(s, i + 1)
  if s_byte(s, i) == 93 then return t, i + 1 end
  while true do
    local v
    v, i = decode_value(s, i, depth + 1)
    n = n + 1
    if v == nil then t[n] = NULL else t[n] = v end
    i = skip(s, i)
    local c = s_byte(s, i)
    if c == 93 then return t, i + 1 end
    if c ~= 44 then derr("expected ',' or ']'", i) end
    i = skip(s, i + 1)
  end
end

local function dobject(s, i, depth)
  if depth >= MAX_DEPTH then derr("nesting deeper than " .. MAX_DEPTH .. " levels", i) end
  local t = {}
  i = skip(s, i + 1)
  if s_byte(s, i) == 125 then return t, i + 1 end
  while true do
    if s_byte(s, i) ~= 34 then derr("expected a string key", i) end
    local k
    k, i = dstring(s, i)
    i = skip(s, i)
    if s_byte(s, i) ~= 58 then derr("expected ':'", i) end
    local v
    v, i = decode_value(s, skip(s, i + 1), depth + 1)
    t[k] = v
    i = skip(s, i)
    local c = s_byte(s, i)
    if c == 125 then return t, i + 1 end
    if c ~= 44 then derr("expected ',' or '}'", i) end
    i = skip(s, i + 1)
  end
end

decode_value = function(s, i, depth)
  local c = s_byte(s, i)
  if c == 123 then return dobject(s, i, depth) end
  if c == 91 then return darray(s, i, depth) end
  if c == 34 then return dstring(s, i) end
  if c == 116 and s_sub(s, i, i + 3) == "true" then return true, i + 4 end
  if c == 102 and s_sub(s, i, i + 4) == "false" then return false, i + 5 end
  if c == 110 and s_sub(s, i, i + 3) == "null" then return nil, i + 4 end
  if c == nil then derr("unexpected end of input", i) end
  return dnumber(s, i)
end

local function decode_top(s)
  local v, i = decode_value(s, skip(s, 1), 0)
  i = skip(s, i)
  if i <= #s then derr("unexpected trailing characters", i) end
  return v
end

--------------------------------------------------------------------------------------------------------------
-- readable rendering (breakpoints, table error objects)
--------------------------------------------------------------------------------------------------------------

local TRUNC = {}

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    if ta == "string" then return true end
    if tb == "string" then return false end
    return ta < tb
  end
  if ta == "string" or ta == "number" then return a < b end
  return tostring(a) < tostring(b)
end

local function render(v, pretty)
  if type(v) == "string" then return v end
  if v == nil then return "nil" end
  local out, n, size = {}, 0, 0
  local seen = {}
  local function put(s)
    n = n + 1
    out[n] = s
    size = size + #s
    if size > MAX_RENDER then error(TRUNC, 0) end
  end
  local function r(x, indent, depth)
    local tx = type(x)
    if x == nil or rawequal(x, NULL) then
      put("null")
    elseif tx == "string" then
      put(quote(x))
    elseif tx == "number" then
      put(fmt_number(x) or (x ~= x and "nan" or (x > 0 and "inf" or "-inf")))
    elseif tx == "boolean" then
      put(x and "true" or "false")
    elseif tx ~= "table" then
      put("<" .. tx .. ">")
    elseif seen[x] then
      put("<cycle>")
    elseif depth >= 32 then
      put("<…>")
    else
      local keys, nk, maxk, allint = {}, 0, 0, true
      for k in next, x do
        nk = nk + 1
        keys[nk] = k
        if m_type(k) == "integer" and k > 0 then
          if k > maxk then maxk = k end
        else
          allint = false
        end
      end
      local marked = dgetmetatable(x) == ARRAY_MT
      if nk == 0 then
        put(marked and "[]" or "{}")
        return
      end
      seen[x] = true
      local inner = pretty and (indent .. "  ") or ""
      local nl = pretty and ("\n" .. inner) or ""
      local sep = pretty and ("," .. nl) or ","
      if allint and maxk <= 2 * nk then
        put("[" .. nl)
        for i = 1, maxk do
          if i > 1 then put(sep) end
          r(rawget(x, i), inner, depth + 1)
        end
      else
        t_sort(keys, key_order)
        put("{" .. nl)
        for i = 1, nk do
          local k = keys[i]
          if i > 1 then put(sep) end
          if type(k) == "string" then
            put(quote(k))
          else
            put(quote("[" .. (type(k) == "number" and (fmt_number(k) or tostring(k)) or ("<" .. type(k) .. ">")) .. "]"))
          end
          put(pretty and ": " or ":")
          r(rawget(x, k), inner, depth + 1)
        end
      end
      put(pretty and ("\n" .. indent) or "")
      put((allint and maxk <= 2 * nk) and "]" or "}")
      seen[x] = nil
    end
  end
  local ok, e = raw_pcall(r, v, "", 0)
  if not ok then
    if e ~= TRUNC then error(e, 0) end
    n = n + 1
    out[n] = "…(truncated)"
  end
  return t_concat(out, "", 1, n)
end

--------------------------------------------------------------------------------------------------------------
-- console
--------------------------------------------------------------------------------------------------------------

local console_full = false

local function emit(level, ...)
  if console_full then return end
  local n = select("#", ...)
  local parts = { ... }
  for i = 1, n do parts[i] = tostring(parts[i]) end
  local msg = t_concat(parts, "\t", 1, n)
  if #msg > MAX_MESSAGE then msg = s_sub(msg, 1, MAX_MESSAGE) .. "…(truncated)" end
  if s_find(msg, "\0", 1, true) then msg = s_gsub(msg, "%z", "\\0") end
  if not host_console(level, msg) then console_full = true end
end

--------------------------------------------------------------------------------------------------------------
-- uncatchable stops (breakpoint, memory limit) and the sandboxed globals
--------------------------------------------------------------------------------------------------------------

local bp_hit, bp_line, bp_text = false, nil, nil
local mem_fatal, mem_line = false, nil
local STOP = setmetatable({}, {
  __name = "silicon.stop",
  __tostring = function() return "run stopped by the sandbox" end,
  __metatable = false,
})

-- After pcall/xpcall/coroutine.resume: a breakpoint or the memory limit must not be swallowed; a memory
-- error caused by runaway recursion is reported as the ordinary (catchable) "stack overflow" error.
local function check_caught(ok, ...)
  if not ok then
    if bp_hit or mem_fatal then error(STOP, 0) end
    if rawequal((...), MEMMSG) then
      local kind = host_memstate(true)
      if kind == 2 then return false, "stack overflow" end
      if kind ~= 0 then
        mem_fatal = true
        error(STOP, 0)
      end
    end
  end
  return ok, ...
end

_G.dofile = nil
_G.loadfile = nil
_G.require = nil
_G.collectgarbage = nil
_G.debug = nil
string.dump = nil
-- getmetatable("") returns false, so the shared string metatable cannot be modified.
dgetmetatable("").__metatable = false

_G.pcall = function(f, ...)
  return check_caught(raw_pcall(f, ...))
end
_G.xpcall = function(f, msgh, ...)
  return check_caught(raw_xpcall(f, msgh, ...))
end
coroutine.resume = function(co, ...)
  return check_caught(co_resume(co, ...))
end
coroutine.close = function(co)
  return check_caught(co_close(co))
end

-- Only text chunks: the mode argument is ignored and forced to "t", so bytecode can never be loaded.
_G.load = function(...)
  local chunk, name, _, env = ...
  if select("#", ...) >= 4 then return raw_load(chunk, name, "t", env) end
  return raw_load(chunk, name, "t")
end

-- string.rep refuses results larger than the memory limit up front, so rep bombs end with -4 deterministically.
string.rep = function(s, n, sep)
  if type(n) == "number" and n > 1 and (type(s) == "string" or type(s) == "number") then
    local size = #tostring(s) * n
    if sep ~= nil and (type(sep) == "string" or type(sep) == "number") then size = size + #tostring(sep) * (n - 1) end
    if size > memory_limit then
      mem_fatal = true
      mem_line = user_line(1)
      error(STOP, 0)
    end
  end
  return s_rep(s, n, sep)
end

_G.print = function(...)
  emit(1, ...)
end
_G.warn = function(...)
  local n = select("#", ...)
  local first = ...
  if n == 1 and type(first) == "string" and s_sub(first, 1, 1) == "@" then return end
  local parts = { ... }
  for i = 1, n do parts[i] = tostring(parts[i]) end
  emit(2, t_concat(parts, "", 1, n))
end
_G.log = {
  ok = function(...) emit(0, ...) end,
  info = function(...) emit(1, ...) end,
  warn = function(...) emit(2, ...) end,
  error = function(...) emit(3, ...) end,
}

_G.json = {
  null = NULL,
  array = function(t)
    if t == nil then t = {} end
    if type(t) ~= "table" then error("json.array: expected a table, got " .. type(t), 2) end
    return setmetatable(t, ARRAY_MT)
  end,
  encode = function(v)
    local s, msg = encode_with("value", v, nil, false)
    if not s then error("json.encode: " .. msg, 2) end
    return s
  end,
  decode = function(s)
    if type(s) ~= "string" then error("json.decode: expected a string, got " .. type(s), 2) end
    local ok, v = raw_pcall(decode_top, s)
    if ok then return v end
    if dgetmetatable(v) == EncodeError then error("json.decode: " .. v.msg, 2) end
    error(v, 0)
  end,
}

_G.breakpoint = function(...)
  if not bp_hit then
    bp_hit = true
    bp_line = user_line(1) or 0
    local ok, text = raw_pcall(render, (...), true)
    bp_text = ok and text or ("<could not render value: " .. tostring(text) .. ">")
  end
  error(STOP, 0)
end

-- Host functions: Lua calls them synchronously; the worker blocks until the main thread answers.
local function install_host(name)
  local fn = function(...)
    local n = select("#", ...)
    local list = setmetatable({ ... }, ARRAY_MT)
    for i = 1, n do
      if list[i] == nil then list[i] = NULL end
    end
    local payload, msg = encode_with("argument", list, max_result, false)
    if not payload then error(name .. ": argument is not JSON-serialisable: " .. msg, 2) end
    local reply = host_call(name, payload)
    if s_sub(reply, 1, 1) == "1" then return decode_top(s_sub(reply, 2)) end
    error(s_sub(reply, 2), 0)
  end
  local t, last = _G, nil
  for part in s_gmatch(name, "[^.]+") do
    if last then
      local nt = rawget(t, last)
      if type(nt) ~= "table" then
        nt = {}
        rawset(t, last, nt)
      end
      t = nt
    end
    last = part
  end
  rawset(t, last, fn)
end

for _, name in next, decode_top(host_names_json) do
  install_host(name)
end

--------------------------------------------------------------------------------------------------------------
-- the run
--------------------------------------------------------------------------------------------------------------

local handler_line = nil
local function handler(e)
  if not rawequal(e, STOP) then handler_line = user_line(2) end
  return e
end

local function parse_message(e)
  local pfx = chunkname .. ":"
  if s_sub(e, 1, #pfx) == pfx then
    local ln, rest = s_match(e, "^(%d+): (.*)$", #pfx + 1)
    if ln then return rest, m_tointeger(tonumber(ln)) end
  end
  return e, nil
end

local function describe_error(e)
  local te = type(e)
  if te == "string" then
    local msg, line = parse_message(e)
    return msg, line or handler_line
  elseif te == "number" then
    return fmt_number(e) or tostring(e), handler_line
  elseif e == nil then
    return "(error object is a nil value)", handler_line
  elseif te == "table" then
    local mt = dgetmetatable(e)
    if mt and type(rawget(mt, "__tostring")) == "function" then
      local ok, s = raw_pcall(tostring, e)
      if ok and type(s) == "string" then return s, handler_line end
    end
    local ok, s = raw_pcall(render, e, false)
    return ok and s or "(error object is a table value)", handler_line
  end
  return "(error object is a " .. te .. " value)", handler_line
end

local function extract_schema()
  local s = rawget(_G, "schema")
  if type(s) ~= "table" then return end
  local out = {}
  for _, key in next, { "arguments", "config" } do
    local v = rawget(s, key)
    if v ~= nil then
      local j, msg = encode_with("schema." .. key, v, max_result, true)
      if j then out[key] = j else emit(2, "schema." .. key .. " ignored: " .. msg) end
    end
  end
  if out.arguments or out.config then host_schema(out.arguments, out.config) end
end

local function call_entry()
  local f = _G
  for part in s_gmatch(entry, "[^.]+") do
    if type(f) ~= "table" then
      f = nil
      break
    end
    f = f[part]
  end
  if f == nil then error("function '" .. entry .. "' is not defined", 0) end
  if type(f) ~= "function" then
    local mt = dgetmetatable(f)
    if not (mt and rawget(mt, "__call")) then
      error("'" .. entry .. "' is not a function (a " .. type(f) .. " value)", 0)
    end
  end
  local args = decode_top(args_json)
  for i = 1, argc do
    if rawequal(args[i], NULL) then args[i] = nil end
  end
  return f(t_unpack(args, 1, argc))
end

host_phase(1) -- from here on the memory limit applies

local status, result_json, emsg, eline
local fn, syntax = raw_load(code, user_source, "t", _G)
code = nil

if not fn then
  host_phase(2)
  status = -2
  emsg, eline = parse_message(syntax)
else
  local ok, res = raw_xpcall(fn, handler)
  -- schemas are reported even when the chunk failed after declaring them
  local sok, serr = raw_pcall(extract_schema)
  if ok and not sok then ok, res = false, serr end
  if ok then
    handler_line = nil
    ok, res = raw_xpcall(call_entry, handler)
  end
  host_phase(2) -- the limit is raised for the epilogue (encoding the result)
  local kind = (not ok and rawequal(res, MEMMSG)) and host_memstate(false) or 0
  if kind == 2 and not mem_fatal and not bp_hit then
    ok, res, handler_line = false, "stack overflow", nil
  end
  if mem_fatal or kind == 1 then
    status = -4
    emsg = "memory limit exceeded (" .. s_format("%d", memory_limit) .. " bytes)"
    eline = mem_line
  elseif bp_hit then
    status = -6
  elseif not ok then
    status = -1
    emsg, eline = describe_error(res)
  else
    local j, msg, too_big = encode_with("result", res, max_result, false)
    if j then
      status = 1
      result_json = j
    elseif too_big then
      status = -5
      emsg = "result is " .. msg .. " when encoded as JSON"
    else
      status = -5
      emsg = "result is not JSON-serialisable: " .. msg
    end
  end
end

local out = { '{"status":', s_format("%d", status) }
if result_json then
  out[#out + 1] = ',"result":'
  out[#out + 1] = result_json
end
if emsg then
  out[#out + 1] = ',"error":{"message":'
  out[#out + 1] = quote(emsg)
  out[#out + 1] = ',"line":'
  out[#out + 1] = eline and s_format("%d", eline) or "null"
  out[#out + 1] = "}"
end
if status == -6 then
  out[#out + 1] = ',"debug":{"breakpoint":'
  out[#out + 1] = s_format("%d", bp_line or 0)
  out[#out + 1] = ',"string":'
  out[#out + 1] = quote(bp_text or "")
  out[#out + 1] = "}"
end
out[#out + 1] = "}"
return t_concat(out)
