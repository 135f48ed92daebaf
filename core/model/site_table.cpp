#include "site_table.hpp"

#include <cctype>
#include <cstdio>

namespace haec::core {

std::string object_name(const std::string& path, long pid)
{
  std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  const std::string tail = "_" + std::to_string(pid) + "_";
  const size_t at        = base.rfind(tail);
  if (at == std::string::npos || base.size() < 3 || base.compare(base.size() - 3, 3, ".so") != 0)
    return base;
  const std::string rank = base.substr(at + tail.size(), base.size() - 3 - at - tail.size());
  if (rank.empty())
    return base;
  for (char c : rank)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return base;
  return base.substr(0, at);
}

std::string call_site_text(const std::string& function, const std::string& object, uint64_t offset)
{
  char hex[32];
  std::snprintf(hex, sizeof hex, "+0x%llx", static_cast<unsigned long long>(offset));
  return function + "@" + object + hex;
}

// Looked up once per MPI call: find first, so that a known site costs no allocation.
uint32_t SiteTable::site(const std::string& text)
{
  if (auto it = site_ids_.find(text); it != site_ids_.end())
    return it->second;
  const auto id = static_cast<uint32_t>(sites_.size());
  site_ids_.emplace(text, id);
  sites_.push_back(text);
  return id;
}

const std::string& SiteTable::site_text(uint32_t id) const
{
  static const std::string start = "start";
  return id == kNoSite ? start : sites_.at(id);
}

uint32_t SiteTable::region(uint32_t from, uint32_t to)
{
  const uint64_t key = (static_cast<uint64_t>(from) << 32) | to;
  if (auto it = region_ids_.find(key); it != region_ids_.end()) // once per computation: no allocation
    return it->second;
  const auto id = static_cast<uint32_t>(regions_.size());
  region_ids_.emplace(key, id);
  regions_.push_back({from, to, site_text(from) + ">" + (to == kNoSite ? std::string("*") : site_text(to))});
  return id;
}

} // namespace haec::core
