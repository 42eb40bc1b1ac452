// `tjrender fmt`: reads YAML or JSON streams and prints them the way
// kubectl prints objects (keys sorted, kubectl's quoting), as a YAML stream
// or JSON documents.
#include <boost/program_options.hpp>

#include <time.h>

#include <chrono>
#include <cstdio>

#include "base/file.h"
#include "cli/command.h"
#include "cli/findings_output.h"
#include "cli/commands.h"
#include "cli/options.h"
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

// Wall time and this thread's CPU time: on a shared machine the CPU time
// is the steadier figure.
struct Stopwatch {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = CpuSeconds();

  static double CpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
  }
};

struct Elapsed {
  double wall = 0;
  double cpu = 0;

  void Add(const Stopwatch& since) {
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - since.wall).count();
    cpu += Stopwatch::CpuSeconds() - since.cpu;
  }
};

void PrintThroughput(const char* what, std::size_t bytes, const Elapsed& took) {
  double megabytes = static_cast<double>(bytes) / 1e6;
  std::fprintf(stderr, "%-5s %zu bytes: wall %.3f s (%.1f MB/s), cpu %.3f s (%.1f MB/s)\n", what,
               bytes, took.wall, took.wall > 0 ? megabytes / took.wall : 0, took.cpu,
               took.cpu > 0 ? megabytes / took.cpu : 0);
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
  if (auto exit_code = ParseCommandLine(args, named, &files, kUsage)) return *exit_code;
  if (files.empty() || (output != "yaml" && output != "json")) {
    ReportUsageError("fmt needs FILE... and -o yaml|json (see tjrender fmt --help)");
    return kExitUsage;
  }

  std::vector<doc::Node> documents;
  std::size_t input_bytes = 0;
  Elapsed reading;
  const std::vector<source::OutputFile> stdout_file = StdoutFile();
  for (const std::string& file : files) {
    // `fmt a.yaml > a.yaml`: the shell emptied a.yaml before fmt started,
    // so reading it would print nothing and look like success.
    std::optional<FileStamp> stamp = file == "-" ? std::nullopt : StampOf(file);
    if (stamp && !stdout_file.empty() && stamp->device == stdout_file[0].device &&
        stamp->inode == stdout_file[0].inode) {
      Report(AsInputError(MakeError(Location{InternSourceName(file)}, "",
                                    "is also fmt's stdout (the shell emptied it before fmt started, so there is "
                                    "nothing left to read): write to another file, then move it over this one")));
      return kExitUsage;
    }
    auto text = ReadFile(file);
    if (!text.ok()) {
      Report(text.error());
      return kExitUsage;
    }
    input_bytes += text->size();
    Stopwatch start;
    auto read = yaml::ReadStream(*text, file == "-" ? "<stdin>" : file);
    reading.Add(start);
    if (!read.ok()) {
      Report(read.error());
      return kExitUsage;
    }
    for (doc::Node& document : *read) documents.push_back(std::move(document));
  }

  Stopwatch start;
  Elapsed writing;
  std::string out;
  if (output == "json") {
    for (const doc::Node& document : documents) out += json::Write(document, /*pretty=*/true);
  } else {
    out = yaml::WriteStream(documents);
  }
  writing.Add(start);
  WriteStdout(out);
  if (timings) {
    PrintThroughput("read", input_bytes, reading);
    PrintThroughput("write", out.size(), writing);
  }
  return kExitClean;
}

}  // namespace tjr::cli
