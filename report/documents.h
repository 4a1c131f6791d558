// The source documents' figures beside a run's (configs/document-figures.json, the one
// place they are written; the experiment scripts read it too): found relative to the
// running tpfemu, as its guest images are (os/guest_dir.h), so that a build tree's and
// an installed tpfemu find it from any directory.
#pragma once
#include <string>
#include <string_view>

#include "report/report_json.h"

namespace report_html {

// configs/document-figures.json: the source tree's for a build tree's tpfemu, else
// the installed one (share/tpfemu/configs/).
std::string document_figures_path();

// The entry of the configuration a run ran (summary.json's "config": one file, by its
// name): {"experiment", "document", "source", "figures": [{"key", "label", "value",
// "unit"}]}; null when the run is no experiment's or the file is not there. Throws
// std::runtime_error naming the file when it is not JSON as described.
report_json::Json document_entry(std::string_view config);

}  // namespace report_html
