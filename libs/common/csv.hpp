// Reading the CSV tables haec writes (and users give back): one row reader, so every table is
// read with the same rules and the same one-line errors. Pure C++.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace haec::csv {

// The fields of one line: commas outside double quotes separate them; quotes and '\r' are dropped.
std::vector<std::string> cells(const std::string& line);

// Every row of `text` (read from `file`) after its header, which must start with `header`; blank
// rows are skipped. Calls row(cells, "file:line"). Throws haec::InputError naming file:line for an
// empty file, another header, a row of fewer than `min_cells` fields, a last line without '\n'.
void for_each_row(const std::string& text, const std::string& file, const std::string& header, size_t min_cells,
                  const std::function<void(const std::vector<std::string>& cells, const std::string& at)>& row);

} // namespace haec::csv
