// One table of every --cfg=haec/... setting: its key, description, default, how a value is
// checked and which other setting it needs to have any effect. The suite declares its SimGrid
// flags from this table and the `haec` CLI validates its options with it, so a value is checked by
// one function wherever it is given. Pure C++: no SimGrid include.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace haec::settings {

// A setting has an effect only when one of these holds (any of them).
struct Need {
  std::string key;                 // the setting that must be active
  std::vector<std::string> values; // ... with one of these values; empty: set to anything but "", "none" or false
};

struct Setting {
  using Check = std::function<void(const std::string& value, const std::string& what)>;
  Setting(std::string k, std::string d, std::string fallback, Check c = {}, std::vector<Need> n = {})
      : key(std::move(k)), description(std::move(d)), default_value(std::move(fallback)), check(std::move(c))
      , needs(std::move(n))
  {
  }

  std::string key;
  std::string description;
  std::string default_value;
  // Checks one value alone (range, syntax); throws haec::InputError naming `what`. May be empty.
  Check check;
  std::vector<Need> needs; // empty: always has an effect
  std::string option;      // the `haec run` option that sets it ("--every"), "" when only --cfg does
  bool reserved = false;   // haec run sets it from `option` and refuses it as --cfg
  bool value_in_errors = true; // errors name "KEY:VALUE" (false: the check quotes the bad part itself)
  std::string host_property;   // a host property that also makes it active ("haec:governor"), or ""
};

// Where values come from: the wording of the inputs in error messages.
enum class Source {
  Cli,   // haec run: "--every 3" or "--cfg haec/link/window:8"
  Suite  // smpirun: "--cfg=haec/link/window:8"
};

class Table;

// The values of one run: what the user gave, over the table's defaults.
class Values {
public:
  Values(const Table& table, Source source) : table_(&table), source_(source) {}
  // Records a value the user gave; `option` is the haec run option it came from ("" for --cfg).
  void give(const std::string& key, const std::string& value, const std::string& option = "");
  // Counts `key` as active although not given (e.g. hosts carrying a haec:governor property).
  void assume_active(const std::string& key) { assumed_.insert(key); }

  bool given(const std::string& key) const { return given_.count(key) > 0; }
  // No value given and none assumed active: the suite was loaded without any haec flag.
  bool nothing_given() const { return given_.empty() && assumed_.empty(); }
  const std::string& text(const std::string& key) const;
  double number(const std::string& key) const;    // units::parse_number
  long long integer(const std::string& key) const; // units::parse_integer (non-negative)
  bool boolean(const std::string& key) const;     // yes/no, on/off, true/false, 1/0
  bool active(const std::string& key) const;      // see Need
  // Only the given values, key -> text.
  std::map<std::string, std::string> given_values(const std::string& prefix = "") const;
  // How the input reads in an error: "--every 3", "--cfg haec/link/window:8" or "--cfg=haec/...".
  std::string what(const std::string& key) const;
  Source source() const { return source_; }

private:
  struct Given {
    std::string value, option;
  };
  const Table* table_;
  Source source_;
  std::map<std::string, Given> given_;
  std::set<std::string> assumed_;
};

class Table {
public:
  explicit Table(std::vector<Setting> rows);
  const std::vector<Setting>& rows() const { return rows_; }
  const Setting* find(const std::string& key) const;
  const Setting& at(const std::string& key) const; // throws std::logic_error for a key not in the table
  // Throws InputError for a key not in the table, naming the closest one.
  void check_key(const std::string& key, const std::string& input) const;
  // Every given value through its check, then every given setting's needs. Throws InputError.
  void validate(const Values& values) const;

private:
  std::vector<Setting> rows_;
};

// Checks shared by the tables.
void check_bool(const std::string& value, const std::string& what);
void check_number(const std::string& value, const std::string& what);
void check_non_negative(const std::string& value, const std::string& what);
void check_positive(const std::string& value, const std::string& what);
void check_integer(const std::string& value, const std::string& what); // >= 0
void check_positive_integer(const std::string& value, const std::string& what);
// One of `choices`, else "unknown <noun>; use a, b or c".
std::function<void(const std::string&, const std::string&)> one_of(std::vector<std::string> choices,
                                                                   std::string noun);
std::string joined(const std::vector<std::string>& items, const std::string& last = " or ");

} // namespace haec::settings
