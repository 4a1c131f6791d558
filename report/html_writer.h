// The pieces every HTML page of tpfemu is made of (report.html, compare-B.html): text
// escaped, a number written with its unit, and tables laid out the one way the tests
// (tests/report/, tests/browser/) read them: <table data-table="NAME">, one <tr> in
// its <tbody> per row of the JSON it shows.
//
// A page is a view of the JSON a run already wrote: nothing here computes a figure.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "report/report_json.h"

namespace report_html {

using Json = report_json::Json;

// Text for an HTML element or a quoted attribute: & < > " ' escaped.
std::string escape(std::string_view text);

// The unit a report's key names by its suffix or its words (response_ms: "ms",
// cpu_percent: "%", hold_cycles: "cycles"); "" for a plain count.
std::string unit_of(std::string_view key);

// A number as the text reports write it (whole numbers grouped, others with 6 digits
// after the point below 1, 3 from 1 on), followed by `unit` when there is one; a
// "fraction" (utilization) as a percentage (percent_text).
std::string number_text(double value, std::string_view unit = {});
// A share as a percentage with the digits it needs: 1 after the point from 0.1% on
// (0.999996: "100.0%", 0.25: "25.0%"), two significant digits below (0.0000039:
// "0.00039%"), "0%" for none.
std::string percent_text(double fraction);
// The shortest text that reads back as `value`, its whole part grouped (0.0244,
// 1,084,608.992): a headline as the run wrote it.
std::string shortest_text(double value);

// Members z/OS and z/TPF show in hex (an address, a displacement, an ASID): the key's
// name says so (address, lock_address, disp, asid).
bool is_hex_key(std::string_view key);
// A whole number in hex as the dumps and ETIM print it: upper case, no 0x, at least
// `digits` digits (8 for an address below 4 GB, 16 above; 4 for a displacement or ASID).
std::string hex_text(double value, std::string_view key);
// A JSON value in a cell: a number with the unit its key names (in hex for is_hex_key,
// an I-stream of -1, several, as "***" as the text reports write it), a string as it
// is, null as "n/a", an array of numbers or strings as its elements, an object of them as
// "member value" pairs; never as JSON.
std::string value_text(const Json& value, std::string_view key);

// One cell: its text (escaped here) and, for a number, the value a sort compares; or
// markup of its own (`html`, written as it is: a nested table).
struct Cell {
  std::string text{};
  bool numeric = false;
  double sort = 0;
  std::string html{};
};
Cell cell_of(const Json& value, std::string_view key);
Cell text_cell(std::string text);

// A table with its header; `sortable`: a click on a column sorts by it (the page's
// script); `filter`: rows whose first cell does not contain the text typed in the
// page's filter box named so are hidden.
struct Table {
  std::string name{};  // data-table
  std::vector<std::string> header{};
  std::vector<std::vector<Cell>> rows{};
  bool sortable = true;
  std::string filter{};
};
// The table in a box as wide as the page that scrolls sideways when the table is wider.
std::string table_html(const Table& table);

// An array of objects inside a cell (ETIM's by_ecb_program places) as a small table of
// their members, a row each (no data-table: it is part of its cell).
std::string inner_table_html(const Json& objects);

// A text report as it is (<pre data-report="FILE">, in a box of bounded height that
// scrolls), so that its columns stay the ones the analyst knows.
std::string text_report_html(std::string_view file, std::string_view text);

// The page: its title, inlined style and script (sorting, filtering), the body.
std::string page_html(std::string_view title, std::string_view body);

// A section heading with an id a link can point to.
std::string heading(int level, std::string_view id, std::string_view text);

}  // namespace report_html
