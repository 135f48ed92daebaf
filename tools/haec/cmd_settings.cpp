// `haec settings`: the table of every --cfg haec/... setting (core/model/core_settings.hpp), the
// one the suite declares its flags from and haec run validates with.
#include "commands.hpp"
#include "core_settings.hpp"
#include "input_error.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace haec::cli {
namespace {

std::string needs_text(const settings::Setting& s)
{
  std::string text;
  for (auto const& n : s.needs) {
    text += (text.empty() ? "" : " or ") + n.key;
    if (!n.values.empty())
      for (size_t i = 0; i < n.values.size(); ++i)
        text += (i == 0 ? ":" : "|") + n.values[i];
  }
  if (!s.host_property.empty())
    text += (text.empty() ? "" : " or ") + ("a host property " + s.host_property);
  return text;
}

void list(bool keys_only)
{
  for (auto const& s : core::settings_table().rows()) {
    if (keys_only) {
      std::printf("%s\n", s.key.c_str());
      continue;
    }
    const char* via = s.option.empty() ? "" : s.reserved ? "  set by haec run " : "  haec run ";
    std::printf("%s  (default: %s)%s%s\n    %s\n", s.key.c_str(),
                s.default_value.empty() ? "empty" : s.default_value.c_str(), via, s.option.c_str(),
                s.description.c_str());
    if (const std::string n = needs_text(s); !n.empty())
      std::printf("    needs %s\n", n.c_str());
  }
}

// The same table for programs (the manual's reference page is generated from it).
void list_json()
{
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (auto const& s : core::settings_table().rows()) {
    nlohmann::ordered_json needs = nlohmann::ordered_json::array();
    for (auto const& n : s.needs)
      needs.push_back({{"key", n.key}, {"values", n.values}});
    rows.push_back({{"key", s.key},
                    {"default", s.default_value},
                    {"description", s.description},
                    {"option", s.option},
                    {"set_by_option_only", s.reserved},
                    {"needs", needs},
                    {"needs_text", needs_text(s)},
                    {"host_property", s.host_property}});
  }
  std::printf("%s\n", rows.dump(2).c_str());
}

} // namespace

void add_settings_command(CLI::App& app)
{
  auto keys_only = std::make_shared<bool>(false);
  auto format    = std::make_shared<std::string>("text");
  auto* cmd      = app.add_subcommand("settings", "List every --cfg haec/... setting: default, description, the haec "
                                                  "run option that sets it and what it needs to have an effect");
  cmd->add_flag("--keys", *keys_only, "Only the keys, one per line");
  cmd->add_option("--format", *format, "text, or json: one object per setting (key, default, description, option, "
                                       "needs), for programs")
      ->capture_default_str();
  cmd->callback([keys_only, format] {
    if (*format == "json")
      list_json();
    else if (*format == "text")
      list(*keys_only);
    else
      throw InputError("--format " + *format, "unknown format", "use text or json");
  });
}

} // namespace haec::cli
