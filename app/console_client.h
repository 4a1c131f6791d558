// `tpfemu console [HOST:]PORT`: a line client for a run's operator console (`tpfemu run
// --console PORT`), for machines without nc. Each line read from standard input is sent;
// everything the console answers is printed on standard output as it comes.
#pragma once
#include <string>

namespace app {

// Exit status: 0 when the console closed the connection (the run ended) or standard
// input ended and every answer was read; 2 when it cannot connect (the message names
// the address).
int console_client(const std::string& address);

}  // namespace app
