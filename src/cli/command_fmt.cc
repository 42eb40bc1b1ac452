// `tjrender fmt`: reads YAML or JSON streams and prints them the way
// kubectl prints objects (keys sorted, kubectl's quoting), as a YAML stream
// or JSON documents.
#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>

#include "base/file.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "json/json.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::cli {
namespace po = boost::program_options;

namespace {

const char kUsage[] =
    "usage: tjrender fmt FILE... [-o yaml|json] [--timings]\n\n"
    "Prints every document of the files ('-' for stdin) as kubectl prints objects.\n"
    "--timings reports read and write throughput on stderr.\n";

double MegabytesPerSecond(std::size_t bytes, std::chrono::steady_clock::duration took) {
  double seconds = std::chrono::duration<double>(took).count();
  return seconds > 0 ? static_cast<double>(bytes) / 1e6 / seconds : 0;
}

}  // namespace

int RunFmt(const std::vector<std::string>& args) {
  std::string output = "yaml";
  bool timings = false;
  std::vector<std::string> files;
  po::options_description named("options");
  named.add_options()("help,h", "show this help")("output,o", po::value(&output),
                                                   "yaml (default) or json")(
      "timings", po::bool_switch(&timings), "report throughput on stderr");
  po::options_description hidden;
  hidden.add_options()("files", po::value(&files));
  po::options_description all;
  all.add(named).add(hidden);
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& error) {
    ReportUsageError(error.what());
    return kExitUsage;
  }
  if (vm.count("help")) {
    WriteStdout(kUsage);
    return kExitClean;
  }
  if (files.empty() || (output != "yaml" && output != "json")) {
    ReportUsageError("fmt needs FILE... and -o yaml|json (see tjrender fmt --help)");
    return kExitUsage;
  }

  using Clock = std::chrono::steady_clock;
  std::vector<doc::Node> documents;
  std::size_t input_bytes = 0;
  Clock::duration reading{};
  for (const std::string& file : files) {
    auto text = ReadFile(file);
    if (!text.ok()) {
      Report(text.error());
      return kExitUsage;
    }
    input_bytes += text->size();
    auto start = Clock::now();
    auto read = yaml::ReadStream(*text, file == "-" ? "<stdin>" : file);
    reading += Clock::now() - start;
    if (!read.ok()) {
      Report(read.error());
      return kExitUsage;
    }
    for (doc::Node& document : *read) documents.push_back(std::move(document));
  }

  auto start = Clock::now();
  std::string out;
  if (output == "json") {
    for (const doc::Node& document : documents) out += json::Write(document, /*pretty=*/true);
  } else {
    out = yaml::WriteStream(documents);
  }
  Clock::duration writing = Clock::now() - start;
  WriteStdout(out);
  if (timings) {
    std::fprintf(stderr, "read  %zu bytes in %.3f s: %.1f MB/s\n", input_bytes,
                 std::chrono::duration<double>(reading).count(),
                 MegabytesPerSecond(input_bytes, reading));
    std::fprintf(stderr, "write %zu bytes in %.3f s: %.1f MB/s\n", out.size(),
                 std::chrono::duration<double>(writing).count(),
                 MegabytesPerSecond(out.size(), writing));
  }
  return kExitClean;
}

}  // namespace tjr::cli
