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
// after the point below 1, 3 from 1 on), followed by `unit` when there is one.
std::string number_text(double value, std::string_view unit = {});
// A JSON value in a cell: a number with the unit its key names, a string as it is,
// null as "n/a", an array or object inline as JSON.
std::string value_text(const Json& value, std::string_view key);

// One cell: its text (escaped here) and, for a number, the value a sort compares.
struct Cell {
  std::string text{};
  bool numeric = false;
  double sort = 0;
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
std::string table_html(const Table& table);

// The page: its title, inlined style and script (sorting, filtering), the body.
std::string page_html(std::string_view title, std::string_view body);

// A section heading with an id a link can point to.
std::string heading(int level, std::string_view id, std::string_view text);

}  // namespace report_html
