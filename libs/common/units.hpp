// Parsing of physical quantities as SimGrid writes them ("250Gbps", "10ns", "2.3Gf") and of plain
// numbers. Pure: no SimGrid. Every parser throws haec::InputError naming `what` on bad input.
#pragma once
#include <string>

namespace haec::units {

// Strict number: the whole string must be a finite decimal/scientific number.
double parse_number(const std::string& text, const std::string& what);
// Strict non-negative integer that fits in a long long.
long long parse_integer(const std::string& text, const std::string& what);
// Boolean as SimGrid reads flags: yes/no, on/off, true/false, 1/0.
bool parse_bool(const std::string& text, const std::string& what);
// Bandwidth in bytes per second. Accepts Bps/kBps/MBps/GBps/TBps, bps/kbps/Mbps/Gbps/Tbps
// (bits: divided by 8), KiBps.. and a bare number (bytes/s).
double parse_bandwidth(const std::string& text, const std::string& what);
// Time in seconds. Accepts s, ms, us, ns, ps and a bare number (seconds).
double parse_time(const std::string& text, const std::string& what);
// Compute speed in flop/s. Accepts f, kf, Mf, Gf, Tf and a bare number.
double parse_speed(const std::string& text, const std::string& what);

// Shortest text that parses back to exactly the same double (for platform files, summaries and
// result tables): std::to_chars, fixed or scientific notation, whichever is shorter.
std::string exact(double value);
// The same, never in scientific notation (byte counts).
std::string exact_fixed(double value);

} // namespace haec::units
