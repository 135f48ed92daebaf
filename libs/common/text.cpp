#include "text.hpp"

#include <cstdint>
#include <cstdio>

namespace haec::text {

std::vector<std::string> split(const std::string& text, char sep)
{
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t pos = text.find(sep, start);
    parts.push_back(text.substr(start, pos - start));
    if (pos == std::string::npos)
      return parts;
    start = pos + 1;
  }
}

std::string trim(const std::string& s)
{
  const char* ws = " \t\r\n";
  size_t b       = s.find_first_not_of(ws);
  if (b == std::string::npos)
    return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

std::vector<std::string> split_ws(const std::string& s)
{
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
      ++i;
    size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
      ++i;
    if (i > b)
      out.push_back(s.substr(b, i - b));
  }
  return out;
}

std::string fnv1a_hex(const std::string& text)
{
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<std::string> split_lines(const std::string& text)
{
  std::vector<std::string> lines;
  size_t b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos)
      e = text.size();
    std::string line = text.substr(b, e - b);
    if (!line.empty() && line.back() == '\r') // files written on Windows
      line.pop_back();
    lines.push_back(line);
    b = e + 1;
  }
  return lines;
}

} // namespace haec::text

namespace haec::text {
namespace {

// Length of the valid UTF-8 sequence starting at s[i] (2..4), 0 if it is not one.
size_t utf8_sequence(const std::string& s, size_t i)
{
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  size_t n              = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
  if (n == 0 || i + n > s.size())
    return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80)
      return 0;
  if ((c == 0xE0 && byte(i + 1) < 0xA0) || (c == 0xED && byte(i + 1) > 0x9F) || (c == 0xF0 && byte(i + 1) < 0x90) ||
      (c == 0xF4 && byte(i + 1) > 0x8F)) // overlong, surrogate or beyond U+10FFFF
    return 0;
  return n;
}

// Cuts quoted excerpts longer than kExcerpt characters.
std::string shorten_quotes(const std::string& s)
{
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    size_t open = s.find('\'', i);
    size_t close = open == std::string::npos ? std::string::npos : s.find('\'', open + 1);
    if (close == std::string::npos) {
      out += s.substr(i);
      break;
    }
    out += s.substr(i, open + 1 - i);
    const std::string inside = s.substr(open + 1, close - open - 1);
    if (inside.size() > kExcerpt) {
      size_t cut = kExcerpt - 8;
      while (cut > 0 && (static_cast<unsigned char>(inside[cut]) & 0xC0) == 0x80) // not inside a UTF-8 sequence
        --cut;
      out += inside.substr(0, cut) + "...";
    } else {
      out += inside;
    }
    out += '\'';
    i = close + 1;
  }
  return out;
}

} // namespace

std::string escaped(const std::string& text)
{
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
    } else if (size_t n = c >= 0x80 ? utf8_sequence(text, i) : 0; n > 0) {
      out += text.substr(i, n);
      i += n;
    } else {
      out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : std::string("\\x") + hex[c >> 4] + hex[c & 15];
      ++i;
    }
  }
  return out;
}

size_t display_length(const std::string& text)
{
  size_t n = 0;
  for (unsigned char c : text)
    n += (c & 0xC0) != 0x80;
  return n;
}

namespace {

bool continuation(const std::string& s, size_t i)
{
  return i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
}

// Whether byte i lies inside an escape of escaped() ("\n", "\x1b") that starts before it.
bool inside_escape(const std::string& s, size_t i)
{
  for (size_t k = 1; k <= 3 && k <= i; ++k)
    if (s[i - k] == '\\') {
      const size_t length = i - k + 1 < s.size() && s[i - k + 1] == 'x' ? 4 : 2;
      return k < length;
    }
  return false;
}

bool cut_allowed(const std::string& s, size_t i)
{
  return !continuation(s, i) && !inside_escape(s, i);
}

// The byte offset after the first `chars` characters of s.
size_t offset_of(const std::string& s, size_t chars)
{
  size_t i = 0;
  for (size_t seen = 0; i < s.size(); ++i)
    if (!continuation(s, i) && seen++ == chars)
      return i;
  return s.size();
}

std::string cut_end(const std::string& text, size_t max)
{
  if (display_length(text) <= max)
    return text;
  size_t at = offset_of(text, max > 3 ? max - 3 : 0);
  while (at > 0 && !cut_allowed(text, at))
    --at;
  return text.substr(0, at) + "...";
}

} // namespace

namespace {

// cut_middle keeping `head_share_percent` of what stays at the start (a path: a third, for its
// end; a problem: more, for its start).
std::string cut_middle_share(const std::string& text, size_t max, size_t head_share_percent)
{
  const size_t length = display_length(text);
  if (length <= max)
    return text;
  const size_t keep = max > 3 ? max - 3 : 0, head = keep * head_share_percent / 100, tail = keep - head;
  size_t head_end = offset_of(text, head), tail_start = offset_of(text, length - tail);
  while (head_end > 0 && !cut_allowed(text, head_end))
    --head_end;
  while (tail_start < text.size() && !cut_allowed(text, tail_start))
    ++tail_start;
  return text.substr(0, head_end) + "..." + text.substr(tail_start);
}

} // namespace

std::string cut_middle(const std::string& text, size_t max)
{
  return cut_middle_share(text, max, 33);
}

std::string error_line(const std::string& input, const std::string& problem, const std::string& fix)
{
  std::string in = escaped(input), pr = escaped(problem), fx = escaped(fix);
  const size_t separators = 2 + (fx.empty() ? 0 : 2);
  const auto length       = [&] { return display_length(in) + display_length(pr) + display_length(fx) + separators; };
  const auto room_for     = [&](const std::string& part, size_t least) { // what the other parts leave it
    const size_t others = length() - display_length(part);
    return others + least >= kMessageBudget ? least : kMessageBudget - others;
  };
  if (length() > kMessageBudget) // the long quotes first, then the input (its end kept), the fix's end, the problem
    in = shorten_quotes(in), pr = shorten_quotes(pr), fx = shorten_quotes(fx);
  if (length() > kMessageBudget)
    in = cut_middle_share(in, room_for(in, 80), 33);
  if (length() > kMessageBudget)
    fx = cut_end(fx, room_for(fx, 60));
  if (length() > kMessageBudget)
    pr = cut_middle_share(pr, room_for(pr, 40), 60);
  return in + ": " + pr + (fx.empty() ? "" : "; " + fx);
}

std::string one_line(const std::string& message)
{
  std::string line = escaped(message);
  if (display_length(line) > kMessageBudget)
    line = shorten_quotes(line);
  return cut_middle_share(line, kMessageBudget, 50);
}

} // namespace haec::text
