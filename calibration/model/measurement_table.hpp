// The small CSV tables calibration reads (samples, wattmeter logs, power manifests): '#' comments
// and blank lines are skipped, the first other line must be the header, each row has exactly the
// header's fields (trimmed). One reader, so the three tables fail alike.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace haec::calibration {

struct TableFormat {
  std::string header;      // e.g. "time,watts"
  std::string header_fix;  // the fix when the header is another line
  std::string row_fix;     // the fix when a row has another number of fields
};

// Calls row(fields, "file:line", line) for every data row. Throws haec::InputError naming
// file:line for a wrong header or field count, and naming the file when it has no header (empty_fix).
void for_each_measurement(const std::string& text, const std::string& file, const TableFormat& format,
                          const std::string& empty_fix,
                          const std::function<void(const std::vector<std::string>& fields, const std::string& where,
                                                   size_t line)>& row);

} // namespace haec::calibration
