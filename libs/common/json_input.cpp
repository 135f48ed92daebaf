#include "json_input.hpp"
#include "input_error.hpp"

#include <set>
#include <vector>

namespace haec {
namespace {

using json = nlohmann::ordered_json;

struct DuplicateKey {
  std::string key, object;
};

// The keys seen so far in each object being parsed, innermost last, and each object's name.
class KeyChecker {
public:
  bool operator()(int, json::parse_event_t event, json& parsed)
  {
    switch (event) {
      case json::parse_event_t::object_start:
        keys_.emplace_back();
        names_.push_back(names_.empty() ? "the top level" : last_key_);
        break;
      case json::parse_event_t::key:
        last_key_ = parsed.get<std::string>();
        if (!keys_.empty() && !keys_.back().insert(last_key_).second)
          throw DuplicateKey{last_key_, names_.back()};
        break;
      case json::parse_event_t::object_end:
        if (!keys_.empty()) {
          keys_.pop_back();
          names_.pop_back();
        }
        break;
      default:
        break;
    }
    return true;
  }

private:
  std::vector<std::set<std::string>> keys_;
  std::vector<std::string> names_;
  std::string last_key_;
};

size_t line_of(const std::string& text, size_t byte)
{
  size_t line = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i)
    line += text[i] == '\n';
  return line;
}

} // namespace

json parse_json_input(const std::string& text, const std::string& what, const std::string& fix, bool line)
{
  KeyChecker checker;
  try {
    return json::parse(text, [&checker](int depth, json::parse_event_t event, json& parsed) {
      return checker(depth, event, parsed);
    });
  } catch (const DuplicateKey& d) {
    throw InputError(what, "key '" + d.key + "' given twice in " + (d.object == "the top level" ? d.object : "'" + d.object + "'"),
                     "give each key once (JSON keeps only one of them)");
  } catch (const json::parse_error& e) {
    throw InputError(line ? what + ":" + std::to_string(line_of(text, e.byte)) : what, "is not valid JSON", fix);
  } catch (const json::exception& e) { // e.g. a number beyond a double (found by fuzzing)
    throw InputError(what, std::string("is not usable JSON: ") + e.what(), "fix the value it names");
  }
}

} // namespace haec
