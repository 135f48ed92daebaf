#include "call_annotation.hpp"
#include "input_error.hpp"

#include <charconv>
#include <cstdio>

namespace haec::trace {
namespace {

const std::string fix = "record the trace again, or write: # RANK haec_call ID ENTER ACTIONS POLL [SITE]";

std::string encode(const std::string& text)
{
  std::string out;
  for (unsigned char c : text) {
    if (c <= ' ' || c == '%' || c == 0x7f) {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

int hex_digit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

std::string decode(const std::string& text, const std::string& where)
{
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const int hi = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1;
    const int lo = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
    if (hi < 0 || lo < 0)
      throw InputError(where, "call site '" + text + "' has a '%' not followed by two hex digits", fix);
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

template <class T> T unsigned_field(const std::string& s, const char* what, const std::string& where)
{
  T value{};
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || error != std::errc() || end != s.data() + s.size())
    throw InputError(where, std::string("call annotation's ") + what + " is '" + s + "', not an integer >= 0", fix);
  return value;
}

} // namespace

std::string format_call_annotation(int rank, const CallAnnotation& a)
{
  std::string line = "# " + std::to_string(rank) + " " + call_annotation_action + " " + std::to_string(a.id) + " " +
                     std::to_string(a.enter) + " " + std::to_string(a.actions) + " " + (a.polling ? "1" : "0");
  if (!a.site.empty())
    line += " " + encode(a.site);
  return line;
}

std::optional<CallAnnotation> parse_call_annotation(const std::vector<std::string>& fields, const std::string& where)
{
  if (fields.size() < 3 || fields[0] != "#" || fields[2] != call_annotation_action)
    return std::nullopt;
  if (fields.size() != 7 && fields.size() != 8)
    throw InputError(where, "call annotation has " + std::to_string(fields.size() - 3) + " fields", fix);
  unsigned_field<uint32_t>(fields[1], "rank", where);
  CallAnnotation a;
  a.id      = unsigned_field<uint32_t>(fields[3], "ID", where);
  a.enter   = unsigned_field<uint32_t>(fields[4], "ENTER", where);
  a.actions = unsigned_field<uint64_t>(fields[5], "ACTIONS", where);
  if (a.enter > 1)
    throw InputError(where, "call annotation's ENTER is " + fields[4] + ", not 0 or 1", fix);
  if (fields[6] != "0" && fields[6] != "1")
    throw InputError(where, "call annotation's POLL is '" + fields[6] + "', not 0 or 1", fix);
  a.polling = fields[6] == "1";
  if (fields.size() == 8) {
    a.site = decode(fields[7], where);
    if (a.site.empty())
      throw InputError(where, "call annotation names an empty site", fix);
  }
  return a;
}

const std::string& CallGroups::announce(const CallAnnotation& a, const std::string& where, Step& now)
{
  if (open_)
    throw InputError(where, "call announced while the call announced at " + opened_at_ + " is still open", fix);
  if (!a.site.empty()) {
    if (a.id < names_.size() && !names_[a.id].empty() && names_[a.id] != a.site)
      throw InputError(where, "call site " + std::to_string(a.id) + " named '" + a.site + "', already '" +
                                  names_[a.id] + "'", fix);
    if (a.id >= names_.size())
      names_.resize(a.id + 1);
    names_[a.id] = a.site;
  } else if (a.id >= names_.size() || names_[a.id].empty()) {
    throw InputError(where, "call site " + std::to_string(a.id) + " used before it is named", fix);
  }
  open_      = true;
  inside_    = a.enter == 0;
  to_enter_  = a.enter;
  remaining_ = a.actions;
  opened_at_ = where;
  now        = Step{inside_, inside_ && remaining_ == 0};
  if (now.leave)
    open_ = false;
  return names_[a.id];
}

CallGroups::Step CallGroups::action()
{
  Step s;
  if (!open_)
    return s;
  if (!inside_) {
    if (--to_enter_ > 0)
      return s;
    inside_ = true;
    s.enter = true;
    s.leave = remaining_ == 0;
  } else {
    s.leave = --remaining_ == 0;
  }
  if (s.leave)
    open_ = false;
  return s;
}

void CallGroups::end(const std::string& where) const
{
  if (open_)
    throw InputError(where, "the rank's actions end inside the call announced at " + opened_at_, fix);
}

} // namespace haec::trace
