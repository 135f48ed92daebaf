#include "measurement_table.hpp"

#include "input_error.hpp"
#include "text.hpp"

namespace haec::calibration {

void for_each_measurement(const std::string& text, const std::string& file, const TableFormat& format,
                          const std::string& empty_fix,
                          const std::function<void(const std::vector<std::string>& fields, const std::string& where,
                                                   size_t line)>& row)
{
  const auto lines = text::split(text, '\n');
  const size_t width = text::split(format.header, ',').size();
  bool header = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string where = file + ":" + std::to_string(i + 1);
    const std::string line  = text::trim(lines[i]);
    if (line.empty() || line[0] == '#')
      continue;
    if (!header) {
      if (line != format.header)
        throw InputError(where, "header is '" + line + "', expected '" + format.header + "'", format.header_fix);
      header = true;
      continue;
    }
    auto fields = text::split(line, ',');
    if (fields.size() != width)
      throw InputError(where,
                       "has " + std::to_string(fields.size()) + " fields, expected " + std::to_string(width) + " (" +
                           format.header + ")",
                       format.row_fix);
    for (auto& f : fields)
      f = text::trim(f);
    row(fields, where, i + 1);
  }
  if (!header)
    throw InputError(file, "is empty", empty_fix);
}

} // namespace haec::calibration
