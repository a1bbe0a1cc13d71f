/**
 * Library functions seeded into the demo vendor on first start (`seed.ts`). Their schemas are
 * stored as declared here; `library.test.ts` checks they equal what the sandbox extracts from the code.
 */
import { type Db, schema } from '../../platform/db';

export interface LibraryFunction {
  functionKey: string;
  name: string;
  description: string;
  code: string;
  argumentSchema: Record<string, unknown>;
  configSchema: Record<string, unknown>;
}

const currentTime: LibraryFunction = {
  functionKey: 'current_time',
  name: 'Current time',
  description:
    'The current date and time (ISO 8601, date, time, weekday, unix seconds) at a UTC offset. Use it whenever the answer depends on today or now.',
  code: `-- The current time from the host clock (the sandbox has no os library).
schema = {
  arguments = {
    type = "object",
    properties = {
      utc_offset_minutes = {
        type = "integer", minimum = -720, maximum = 840,
        description = "Offset from UTC in minutes, e.g. 120 for UTC+02:00. Defaults to the configured offset.",
      },
    },
  },
  config = {
    type = "object",
    properties = {
      utc_offset_minutes = {
        type = "integer", minimum = -720, maximum = 840, default = 0,
        description = "Default offset from UTC in minutes.",
      },
    },
  },
}

local WEEKDAYS = { "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday" }

-- Days since 1970-01-01 to year, month, day (proleptic Gregorian calendar).
local function civil_from_days(z)
  z = z + 719468
  local era = z // 146097
  local doe = z - era * 146097
  local yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
  local doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
  local mp = (5 * doy + 2) // 153
  local d = doy - (153 * mp + 2) // 5 + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  return y, m, d
end

function run(args, config)
  local offset = args.utc_offset_minutes
  if offset == nil then offset = config.utc_offset_minutes or 0 end
  if math.type(offset) ~= "integer" or offset < -720 or offset > 840 then
    error("utc_offset_minutes must be a whole number from -720 to 840")
  end
  local ms = clock.ms()
  local seconds = ms // 1000 + offset * 60
  local days, rest = seconds // 86400, seconds % 86400
  local y, m, d = civil_from_days(days)
  local date = string.format("%04d-%02d-%02d", y, m, d)
  local time = string.format("%02d:%02d:%02d", rest // 3600, rest % 3600 // 60, rest % 60)
  local zone = "Z"
  if offset ~= 0 then
    local a = math.abs(offset)
    zone = string.format("%s%02d:%02d", offset < 0 and "-" or "+", a // 60, a % 60)
  end
  return {
    iso = date .. "T" .. time .. zone,
    date = date,
    time = time,
    weekday = WEEKDAYS[(days + 3) % 7 + 1], -- 1970-01-01 was a Thursday
    unix = ms // 1000,
    utc_offset_minutes = offset,
  }
end
`,
  argumentSchema: {
    type: 'object',
    properties: {
      utc_offset_minutes: {
        type: 'integer',
        minimum: -720,
        maximum: 840,
        description: 'Offset from UTC in minutes, e.g. 120 for UTC+02:00. Defaults to the configured offset.',
      },
    },
  },
  configSchema: {
    type: 'object',
    properties: {
      utc_offset_minutes: {
        type: 'integer',
        minimum: -720,
        maximum: 840,
        default: 0,
        description: 'Default offset from UTC in minutes.',
      },
    },
  },
};

const calculator: LibraryFunction = {
  functionKey: 'calculator',
  name: 'Calculator',
  description:
    'Evaluates an arithmetic expression exactly: + - * / % ^, parentheses, sqrt, abs, floor, ceil, round, min, max, ln, log, exp, sin, cos, tan, pi, e. Use it for any calculation.',
  code: `-- A safe arithmetic evaluator: a small recursive-descent parser, no load().
schema = {
  arguments = {
    type = "object",
    properties = {
      expression = {
        type = "string", maxLength = 1000,
        description = "An arithmetic expression, e.g. (2 + 3) * 4 / 5, 2^10, sqrt(16), 17 % 5",
      },
    },
    required = { "expression" },
  },
  config = {
    type = "object",
    properties = {
      precision = {
        type = "integer", minimum = 0, maximum = 15, default = 10,
        description = "Decimal places the result is rounded to.",
      },
    },
  },
}

local FUNCS = {
  sqrt = math.sqrt, abs = math.abs, floor = math.floor, ceil = math.ceil, exp = math.exp,
  sin = math.sin, cos = math.cos, tan = math.tan, min = math.min, max = math.max,
  ln = function(x) return math.log(x) end,
  log = function(x) return math.log(x, 10) end,
  round = function(x) return math.floor(x + 0.5) end,
}
local CONSTS = { pi = math.pi, e = math.exp(1) }

local function evaluate(src)
  local pos = 1
  local function fail(what) error(string.format("%s at position %d", what, pos), 0) end
  local function peek()
    pos = src:find("%S", pos) or #src + 1
    return src:sub(pos, pos)
  end
  local function expect(c)
    if peek() ~= c then fail("Expected '" .. c .. "'") end
    pos = pos + 1
  end

  local expr, unary

  local function primary()
    local c = peek()
    if c == "(" then
      pos = pos + 1
      local v = expr()
      expect(")")
      return v
    end
    local num = src:match("^%d+%.?%d*[eE][%+%-]?%d+", pos) or src:match("^%d+%.?%d*", pos)
      or src:match("^%.%d+", pos)
    if num then
      pos = pos + #num
      return tonumber(num) * 1.0
    end
    local name = src:match("^%a[%w_]*", pos)
    if name then
      local lname = name:lower()
      if CONSTS[lname] then
        pos = pos + #name
        return CONSTS[lname]
      end
      local f = FUNCS[lname]
      if not f then fail("Unknown name '" .. name .. "'") end
      pos = pos + #name
      expect("(")
      local args = { expr() }
      while peek() == "," do
        pos = pos + 1
        args[#args + 1] = expr()
      end
      expect(")")
      return f(table.unpack(args)) * 1.0
    end
    if c == "" then fail("Unexpected end of expression") end
    fail("Unexpected '" .. c .. "'")
  end

  local function power()
    local base = primary()
    if peek() == "^" then
      pos = pos + 1
      return base ^ unary()
    end
    return base
  end

  unary = function()
    local c = peek()
    if c == "-" then
      pos = pos + 1
      return -unary()
    elseif c == "+" then
      pos = pos + 1
      return unary()
    end
    return power()
  end

  local function term()
    local v = unary()
    while true do
      local c = peek()
      if c ~= "*" and c ~= "/" and c ~= "%" then return v end
      pos = pos + 1
      local rhs = unary()
      if c == "*" then
        v = v * rhs
      else
        if rhs == 0 then fail(c == "/" and "Division by zero" or "Modulo by zero") end
        v = c == "/" and v / rhs or v % rhs
      end
    end
  end

  expr = function()
    local v = term()
    while true do
      local c = peek()
      if c ~= "+" and c ~= "-" then return v end
      pos = pos + 1
      local rhs = term()
      v = c == "+" and v + rhs or v - rhs
    end
  end

  local v = expr()
  if peek() ~= "" then fail("Unexpected '" .. src:sub(pos, pos) .. "'") end
  return v
end

function run(args, config)
  local src = args.expression
  if type(src) ~= "string" or src:find("^%s*$") then error("expression must be a non-empty string") end
  if #src > 1000 then error("expression must be at most 1000 characters") end
  local v = evaluate(src)
  if v ~= v or v == math.huge or v == -math.huge then error("The result is not a finite number") end
  local precision = config.precision or 10
  local scale = 10.0 ^ precision
  local rounded = math.floor(v * scale + 0.5) / scale
  if rounded == rounded and rounded ~= math.huge and rounded ~= -math.huge then v = rounded end
  return { expression = src, result = math.tointeger(v) or v }
end
`,
  argumentSchema: {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        maxLength: 1000,
        description: 'An arithmetic expression, e.g. (2 + 3) * 4 / 5, 2^10, sqrt(16), 17 % 5',
      },
    },
    required: ['expression'],
  },
  configSchema: {
    type: 'object',
    properties: {
      precision: {
        type: 'integer',
        minimum: 0,
        maximum: 15,
        default: 10,
        description: 'Decimal places the result is rounded to.',
      },
    },
  },
};

const wordCount: LibraryFunction = {
  functionKey: 'word_count',
  name: 'Word count',
  description:
    'Counts the words, characters and lines of a text and, if configured, lists its most frequent words.',
  code: String.raw`-- Counts words (runs of letters, digits and apostrophes; accented letters included), characters and lines.
schema = {
  arguments = {
    type = "object",
    properties = {
      text = { type = "string", description = "The text to count." },
    },
    required = { "text" },
  },
  config = {
    type = "object",
    properties = {
      top_words = {
        type = "integer", minimum = 0, maximum = 50, default = 0,
        description = "Also list this many most frequent words (0: none).",
      },
    },
  },
}

function run(args, config)
  local text = args.text
  if type(text) ~= "string" then error("text must be a string") end
  local words, freq = 0, {}
  for w in text:gmatch("[%w'\128-\255]+") do
    words = words + 1
    local lw = w:lower()
    freq[lw] = (freq[lw] or 0) + 1
  end
  local _, newlines = text:gsub("\n", "")
  local _, spaces = text:gsub("%s", "")
  local characters = utf8.len(text) or #text
  local out = {
    words = words,
    characters = characters,
    characters_without_spaces = characters - spaces,
    lines = #text == 0 and 0 or newlines + 1,
  }
  local top = config.top_words or 0
  if top > 0 then
    local list = {}
    for w, n in pairs(freq) do list[#list + 1] = { word = w, count = n } end
    table.sort(list, function(a, b)
      if a.count ~= b.count then return a.count > b.count end
      return a.word < b.word
    end)
    local picked = json.array()
    for i = 1, math.min(top, #list) do picked[i] = list[i] end
    out.top_words = picked
  end
  return out
end
`,
  argumentSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to count.' } },
    required: ['text'],
  },
  configSchema: {
    type: 'object',
    properties: {
      top_words: {
        type: 'integer',
        minimum: 0,
        maximum: 50,
        default: 0,
        description: 'Also list this many most frequent words (0: none).',
      },
    },
  },
};

export const LIBRARY_FUNCTIONS: readonly LibraryFunction[] = [currentTime, calculator, wordCount];

/** Adds the library functions a vendor lacks (by function_key); never changes existing ones. Returns how many were added. */
export async function seedLibraryFunctions(db: Db, vendorId: number): Promise<number> {
  const rows = await db
    .insert(schema.functions)
    .values(
      LIBRARY_FUNCTIONS.map((f) => ({
        vendorId,
        name: f.name,
        functionKey: f.functionKey,
        description: f.description,
        runtime: 'silicon',
        isLibrary: true,
        code: f.code,
        argumentSchema: f.argumentSchema,
        configSchema: f.configSchema,
      })),
    )
    .onConflictDoNothing({ target: [schema.functions.vendorId, schema.functions.functionKey] })
    .returning({ id: schema.functions.id });
  return rows.length;
}
