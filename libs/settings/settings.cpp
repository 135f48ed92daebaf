#include "settings.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace haec::settings {
namespace {

size_t edit_distance(const std::string& a, const std::string& b)
{
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0]      = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j]    = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag      = up;
    }
  }
  return row[b.size()];
}

bool is_off(const std::string& v)
{
  return v.empty() || v == "none" || v == "no" || v == "false" || v == "off" || v == "0";
}

// "--balance" or "--link dor, pnc, ..." (CLI), "--cfg=haec/balance/strategy" (suite).
std::string describe(const Table& table, const Need& need, Source source)
{
  const Setting& s = table.at(need.key);
  std::string head = source == Source::Cli && !s.option.empty() ? s.option
                     : source == Source::Cli                     ? "--cfg " + s.key
                                                                 : "--cfg=" + s.key;
  if (need.values.empty()) // a switch ("no" by default) is turned on with yes
    return s.default_value == "no" && head.rfind("--cfg", 0) == 0 ? head + ":yes" : head;
  const char sep = source == Source::Cli && !s.option.empty() ? ' ' : ':';
  std::string values;
  for (auto const& v : need.values)
    values += (values.empty() ? "" : "|") + v;
  return head + sep + values;
}

} // namespace

std::string joined(const std::vector<std::string>& items, const std::string& last)
{
  std::string s;
  for (size_t i = 0; i < items.size(); ++i)
    s += (i == 0 ? "" : i + 1 == items.size() ? last : ", ") + items[i];
  return s;
}

void Values::give(const std::string& key, const std::string& value, const std::string& option)
{
  table_->at(key);
  given_[key] = Given{value, option};
}

const std::string& Values::text(const std::string& key) const
{
  auto it = given_.find(key);
  return it != given_.end() ? it->second.value : table_->at(key).default_value;
}

double Values::number(const std::string& key) const
{
  return units::parse_number(text(key), what(key));
}

long long Values::integer(const std::string& key) const
{
  return units::parse_integer(text(key), what(key));
}

bool Values::boolean(const std::string& key) const
{
  return units::parse_bool(text(key), what(key));
}

bool Values::active(const std::string& key) const
{
  return assumed_.count(key) > 0 || !is_off(text(key));
}

std::map<std::string, std::string> Values::given_values(const std::string& prefix) const
{
  std::map<std::string, std::string> out;
  for (auto const& [key, g] : given_)
    if (key.compare(0, prefix.size(), prefix) == 0)
      out[key] = g.value;
  return out;
}

std::string Values::what(const std::string& key) const
{
  const Setting& s = table_->at(key);
  auto it          = given_.find(key);
  if (it != given_.end() && !it->second.option.empty())
    return it->second.option + " " + it->second.value;
  const std::string head = source_ == Source::Cli ? "--cfg " + key : "--cfg=" + key;
  return s.value_in_errors ? head + ":" + text(key) : head;
}

Table::Table(std::vector<Setting> rows) : rows_(std::move(rows)) {}

const Setting* Table::find(const std::string& key) const
{
  for (auto const& s : rows_)
    if (s.key == key)
      return &s;
  return nullptr;
}

const Setting& Table::at(const std::string& key) const
{
  if (const Setting* s = find(key))
    return *s;
  throw std::logic_error("setting " + key + " is not in the table");
}

void Table::check_key(const std::string& key, const std::string& input) const
{
  if (find(key))
    return;
  auto best = std::min_element(rows_.begin(), rows_.end(), [&](const Setting& a, const Setting& b) {
    return edit_distance(key, a.key) < edit_distance(key, b.key);
  });
  throw InputError(input, "unknown haec option", "did you mean " + best->key + "?");
}

void Table::validate(const Values& values) const
{
  for (auto const& s : rows_)
    if (values.given(s.key) && s.check)
      s.check(values.text(s.key), values.what(s.key));
  for (auto const& s : rows_) {
    if (!values.given(s.key) || s.needs.empty())
      continue;
    bool met = false;
    std::vector<std::string> wanted;
    for (auto const& need : s.needs) {
      const std::string& v = values.text(need.key);
      met = met || (need.values.empty() ? values.active(need.key)
                                        : std::find(need.values.begin(), need.values.end(), v) != need.values.end());
      wanted.push_back(describe(*this, need, values.source()));
    }
    if (!met)
      throw InputError(values.what(s.key), "has no effect without " + joined(wanted),
                       "add " + joined(wanted) + ", or drop this setting");
  }
}

void check_bool(const std::string& value, const std::string& what)
{
  units::parse_bool(value, what);
}

void check_number(const std::string& value, const std::string& what)
{
  units::parse_number(value, what);
}

void check_non_negative(const std::string& value, const std::string& what)
{
  if (!(units::parse_number(value, what) >= 0))
    throw InputError(what, "must not be negative", "give 0 or more");
}

void check_positive(const std::string& value, const std::string& what)
{
  if (!(units::parse_number(value, what) > 0))
    throw InputError(what, "must be positive", "give a value above 0");
}

void check_integer(const std::string& value, const std::string& what)
{
  units::parse_integer(value, what);
}

void check_positive_integer(const std::string& value, const std::string& what)
{
  if (units::parse_integer(value, what) < 1)
    throw InputError(what, "must be at least 1", "give a positive integer");
}

std::function<void(const std::string&, const std::string&)> one_of(std::vector<std::string> choices, std::string noun)
{
  return [choices = std::move(choices), noun = std::move(noun)](const std::string& value, const std::string& what) {
    if (std::find(choices.begin(), choices.end(), value) == choices.end())
      throw InputError(what, "unknown " + noun, "use " + joined(choices));
  };
}

} // namespace haec::settings
