// JSON a user gives us (campaign files, platform.json, coefficient files): parsed strictly. A key
// given twice in one object is refused, naming it (nlohmann keeps the last value silently, so one
// of the two settings would be dropped without a word); a syntax error names the line.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace haec {

// Parses `text`, read from `what` (a file name, for the messages). Throws InputError
// "<what>:<line>: is not valid JSON; <fix>" (without ":<line>" when `line` is false), "<what>: key
// 'K' given twice in 'OBJECT'; give each key once" or "<what>: is not usable JSON: <reason>" (a
// number beyond a double).
nlohmann::ordered_json parse_json_input(const std::string& text, const std::string& what, const std::string& fix,
                                        bool line = true);

} // namespace haec
