-- wrk: PUT each user of IDS_FILE in turn (name, email and status changed), so every request is
-- a write transaction: read the row, write it, keep its SCIM document in step, commit.
local ids = {}
for line in io.lines(os.getenv("IDS_FILE")) do ids[#ids + 1] = line end
local token = os.getenv("TOKEN")
local i = 0
request = function()
    i = i % #ids + 1
    local status = (i % 2 == 0) and "suspended" or "active"
    local body = string.format('{"name":"Bench Writer %d","email":"bench-%s@example.com","status":"%s"}', i, ids[i], status)
    return wrk.format("PUT", "/api/v1/users/" .. ids[i],
        { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, body)
end
