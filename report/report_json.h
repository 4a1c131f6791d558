// The one writer of every report's JSON (summary.json, etim.json, heap.json, ...).
//
// A report builds an ordered_json (members in the order a reader expects them) and
// writes it here, so that every string is escaped the same way (a program name or a
// path with a quote, a backslash or a control character still gives JSON that parses;
// bytes that are not UTF-8 are replaced) and every file has the same layout:
//
//   {
//     "name": value,                      the report: a member a line
//     "inline": {"a": 1, "b": [2, 3]},    below it everything on one line, except
//     "rows": [                           the members the report names one_per_line
//       {"x": 1, "places": [              (at any depth): an element (or member) a
//         {"y": 2}                        line, two spaces further in than the line
//       ]},                               it opens on, and the closer on a line of
//       {"x": 3, "places": [              its own at that line's indent
//       ]}
//     ]
//   }
//
// Numbers: integers as they are; a double in its shortest text that reads back the
// same (0.015625, 25.00011230769231, 0), or with the digits the report chose, through
// fixed() and significant(). Not finite (a division by zero upstream): null, so the
// file still parses.
#pragma once
#include <initializer_list>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace report_json {

using Json = nlohmann::ordered_json;

// The members (by name, at any depth) written an element (or member) a line.
struct Layout {
  std::vector<std::string> one_per_line;
};

// A number written with `digits` after the point: fixed(0.5, 3) is written 0.500.
Json fixed(double value, int digits);
// A number written with `digits` significant digits, as printf's %g: 1.32682e+06.
Json significant(double value, int digits);

// The report's text: the layout above, ending in a newline.
std::string text(const Json& report, const Layout& layout = {});
void write(std::ostream& out, const Json& report, const Layout& layout = {});
// One value on one line (no newline): a string quoted and escaped, a container inline.
// For a member put into a report already written (run_command's ended_early).
std::string inline_text(const Json& value);

}  // namespace report_json
