#pragma once

#include <string>
#include <vector>

namespace tjr::cli {

// One handler per command, each in its own command_<name>.cc.
/// `tjrender conformance DIR... [--update] [--junit FILE]`: runs golden-file
/// case folders (conformance/README.md); exit 0 when every case passes, 1
/// when one fails, 2 for usage errors and cases that cannot be run.
int RunConformance(const std::vector<std::string>& args);
int RunFmt(const std::vector<std::string>& args);
int RunMerge(const std::vector<std::string>& args);
/// `tjrender migrate PATH... [--manager NAME] [--write] [--accept-differences]`:
/// podTemplateOverrides to runtimePatches in place; exit 0 same rendering,
/// 1 rendered differences, 2 usage, input or unmigratable fields.
int RunMigrate(const std::vector<std::string>& args);
/// `tjrender render PATH... [-o -|--out DIR]`: TrainJobs rendered as Trainer v2.1.0 does;
/// exit 0 clean, 1 validation errors, 2 usage or input errors.
int RunRender(const std::vector<std::string>& args);
/// `tjrender check PATH...`: the same validation, nothing written.
int RunCheck(const std::vector<std::string>& args);
/// `tjrender diff BASE [HEAD]`: rendered objects of two revisions compared,
/// HEAD's TrainJobs checked as updates; exit 0 none, 1 differences, 2 errors.
int RunDiff(const std::vector<std::string>& args);
int RunExplain(const std::vector<std::string>& args);

/// `tjrender argocd-generate`: the Argo CD CMP generate command
/// (integrations/argocd/); exit 0 with manifests on stdout, 1 findings or
/// zero objects, 2 usage or input errors.
int RunArgocdGenerate(const std::vector<std::string>& args);
/// `tjrender post-render`: a Helm post-renderer (stdin to stdout).
int RunPostRender(const std::vector<std::string>& args);
/// `tjrender krm`: a KRM function (ResourceList on stdin and stdout).
int RunKrm(const std::vector<std::string>& args);
}  // namespace tjr::cli
