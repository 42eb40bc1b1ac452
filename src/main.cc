#include "cli/run.h"

int main(int argc, char** argv) { return tjr::cli::Run(argc, argv); }
