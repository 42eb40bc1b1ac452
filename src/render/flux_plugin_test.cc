// Flux plugin through the pipeline (plugins/flux/flux.go and flux_test.go
// at v2.2.0 and v2.3.0).
#include <gtest/gtest.h>

#include "doc/path.h"
#include "render/flux_templates.h"
#include "render/render_test_util.h"

namespace tjr::render {
namespace {

using namespace testing;  // NOLINT

constexpr std::string_view kRuntime = R"(
metadata: {name: flux-distributed}
spec:
  mlPolicy:
    numNodes: 1
    flux: {numProcPerNode: 1}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                volumes: [{name: data, emptyDir: {}}]
                initContainers: [{name: prep, image: busybox, resources: {}}]
                containers:
                - name: node
                  image: ubuntu:jammy
                  command: [python, run.py]
                  args: [--from-runtime]
                  env: [{name: FLUX_QUEUE_POLICY, value: easy}, {name: FLUX_VIEW_IMAGE, value: rt-view}]
                  volumeMounts: [{name: data, mountPath: /dev/shm}]
)";

constexpr std::string_view kTrainJob = R"(
metadata: {name: tj, namespace: ns}
spec:
  runtimeRef: {name: flux-distributed}
  trainer:
    numNodes: 2
    numProcPerNode: 4
    args: [--epochs, "3"]
    env: [{name: FLUX_NETWORK_DEVICE, value: ib0}, {name: FLUX_VIEW_IMAGE, value: job-view}]
    resourcesPerNode: {limits: {nvidia.com/gpu: 2}}
)";

RenderedObjects RenderAt(std::string_view trainjob, std::string_view runtime, trainer::TrainerVersion version) {
  RenderOptions options;
  options.version = version;
  Result<RenderedObjects> r = Render(Yaml(trainjob), Yaml(runtime), options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return r.ok() ? *std::move(r) : RenderedObjects{};
}

std::string Data(const RenderedObjects& r, std::string_view key) {
  return doc::StringAtPath(ObjectOfKind(r, "v1", "ConfigMap"), {"data", key});
}

bool HasLine(const std::string& text, std::string_view line) {
  return ("\n" + text).find("\n" + std::string(line) + "\n") != std::string::npos;
}

TEST(FluxPlugin, V23PodSpecChanges) {
  RenderedObjects r = RenderAt(kTrainJob, kRuntime, trainer::TrainerVersion::kV2_3);
  const doc::Node* pod = doc::FindPath(Job(r, 0), {"template", "spec", "template", "spec"});
  ASSERT_NE(pod, nullptr);
  // Runtime volume first, then getViewVolumes and the curve Secret volume.
  ExpectValue(pod->Find("volumes"), R"([
    {name: data, emptyDir: {}},
    {name: spack-install, emptyDir: {}},
    {name: flux-install, emptyDir: {}},
    {name: tj-flux-entrypoint, configMap: {name: tj-flux-entrypoint, defaultMode: 493}},
    {name: shared-memory, emptyDir: {medium: Memory}},
    {name: flux-curve, secret: {secretName: tj-flux-curve, defaultMode: 256}}])");
  // The installer image comes from the TrainJob's env (it wins over the runtime's).
  ExpectValue(pod->Find("initContainers"), R"([
    {name: prep, image: busybox, resources: {}},
    {name: flux-installer, image: job-view, command: [/bin/bash, /etc/flux-config/init.sh],
     volumeMounts: [{name: flux-install, mountPath: /mnt/flux},
                    {name: tj-flux-entrypoint, readOnly: true, mountPath: /etc/flux-config}]}])");
  // Upserted by mountPath: the runtime's /dev/shm mount is replaced in place.
  ExpectValue(Container(r, 0, 0).Find("volumeMounts"), R"([
    {name: shared-memory, readOnly: true, mountPath: /dev/shm},
    {name: flux-install, mountPath: /mnt/flux},
    {name: spack-install, mountPath: /opt/software},
    {name: tj-flux-entrypoint, readOnly: true, mountPath: /etc/flux-config},
    {name: flux-curve, readOnly: true, mountPath: /curve}])");
  // The runtime's command and the TrainJob's args are wrapped; the runtime's
  // args stay, as upstream sets the TrainJob's args to nil.
  ExpectValue(Container(r, 0, 0).Find("command"),
              "[/bin/bash, /etc/flux-config/entrypoint.sh, python run.py --epochs 3]");
  ExpectValue(Container(r, 0, 0).Find("args"), "[--from-runtime]");
  ExpectValue(doc::FindPath(Job(r, 0), {"template", "spec", "parallelism"}), "2");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].message.find("Secret tj-flux-curve is not rendered"), std::string::npos);
}

TEST(FluxPlugin, V23ConfigMap) {
  RenderedObjects r = RenderAt(kTrainJob, kRuntime, trainer::TrainerVersion::kV2_3);
  const doc::Node& cm = ObjectOfKind(r, "v1", "ConfigMap");
  EXPECT_EQ(doc::StringAtPath(cm, {"metadata", "name"}), "tj-flux-entrypoint");
  EXPECT_EQ(doc::StringAtPath(cm, {"metadata", "namespace"}), "ns");
  ExpectValue(doc::FindPath(cm, {"metadata", "ownerReferences"}),
              "[{apiVersion: trainer.kubeflow.org/v1alpha1, kind: TrainJob, name: tj, controller: true, "
              "blockOwnerDeletion: true}]");
  const std::string entrypoint = Data(r, "entrypoint.sh");
  // 4 tasks per node, 2 GPUs per node (limits), 2 nodes.
  EXPECT_TRUE(HasLine(entrypoint, "flux R encode --hosts=${hosts} --cores=0-3 --gpu=0-1 > /tmp/R")) << entrypoint;
  EXPECT_TRUE(HasLine(entrypoint, "mainHost=\"tj-node-0-0\"")) << entrypoint;
  EXPECT_TRUE(HasLine(entrypoint, "    flags=\"-N 2 -n 8 -g 2  \"")) << entrypoint;
  EXPECT_EQ(entrypoint.find('%'), std::string::npos);
  const std::string init = Data(r, "init.sh");
  EXPECT_TRUE(HasLine(init, "fluxroot=/opt/view")) << init;
  EXPECT_TRUE(HasLine(init, "mainHost=tj-0")) << init;
  EXPECT_TRUE(HasLine(init, "hosts=\"tj-node-0-[0-1]\"")) << init;
  // The broker config: network device from the TrainJob, queue policy from
  // the runtime container; %p and %h are Flux's, not format verbs.
  EXPECT_TRUE(HasLine(init, "default_bind = \"tcp://ib0:%p\"")) << init;
  EXPECT_TRUE(HasLine(init, "default_connect = \"tcp://%h.tj.ns.svc.cluster.local:%p\"")) << init;
  EXPECT_TRUE(HasLine(init, "{ host=\"tj-node-0-[0-1]\"},")) << init;
  EXPECT_TRUE(HasLine(init, "queue-policy = \"easy\"")) << init;
  // The broker.toml text ends with a newline, then the heredoc's own one.
  EXPECT_NE(init.find("queue-policy = \"easy\"\n\nEOT\n"), std::string::npos);
}

TEST(FluxPlugin, V22InstallerInJobSetAndOldEntrypoint) {
  RenderedObjects r = RenderAt(kTrainJob, kRuntime, trainer::TrainerVersion::kV2_2);
  const doc::Node* pod = doc::FindPath(Job(r, 0), {"template", "spec", "template", "spec"});
  ASSERT_NE(pod, nullptr);
  ExpectValue(pod->Find("volumes"), R"([
    {name: data, emptyDir: {}},
    {name: spack-install, emptyDir: {}},
    {name: flux-install, emptyDir: {}},
    {name: tj-flux-entrypoint, configMap: {name: tj-flux-entrypoint, defaultMode: 493}},
    {name: flux-curve, secret: {secretName: tj-flux-curve, defaultMode: 256}}])");
  ExpectValue(pod->Find("initContainers"), R"([
    {name: prep, image: busybox, resources: {}},
    {name: flux-installer, image: job-view, command: [/bin/bash, /etc/flux-config/init.sh],
     volumeMounts: [{name: flux-install, mountPath: /mnt/flux},
                    {name: tj-flux-entrypoint, readOnly: true, mountPath: /etc/flux-config}]}])");
  ExpectValue(Container(r, 0, 0).Find("volumeMounts"), R"([
    {name: data, mountPath: /dev/shm},
    {name: flux-install, mountPath: /mnt/flux},
    {name: spack-install, mountPath: /opt/software},
    {name: tj-flux-entrypoint, readOnly: true, mountPath: /etc/flux-config},
    {name: flux-curve, readOnly: true, mountPath: /curve}])");
  // v2.2.0 PodSets carry no runtime command: only the TrainJob's args are wrapped.
  ExpectValue(Container(r, 0, 0).Find("command"), "[/bin/bash, /etc/flux-config/entrypoint.sh, --epochs 3]");
  const std::string entrypoint = Data(r, "entrypoint.sh");
  EXPECT_TRUE(HasLine(entrypoint, "flux R encode --hosts=${hosts} --local > /tmp/R")) << entrypoint;
  EXPECT_TRUE(HasLine(entrypoint, "    flags=\"-N 2 -n 8 -g 2  \"")) << entrypoint;
  EXPECT_EQ(entrypoint.rfind("#!/bin/sh\n", 0), 0u);  // no licence header before v2.3.0
}

TEST(FluxPlugin, NoGpuSingleTaskAndTrimmedCommand) {
  // flux_test.go TestGetOriginalCommand "command and args with extra spaces".
  constexpr std::string_view kJob = R"(
metadata: {name: tj, namespace: ns}
spec:
  trainer: {numNodes: 1, command: ["  python  "], args: [" script.py "]}
)";
  RenderedObjects r = RenderAt(kJob, kRuntime, trainer::TrainerVersion::kV2_3);
  ExpectValue(Container(r, 0, 0).Find("command"), "[/bin/bash, /etc/flux-config/entrypoint.sh, python    script.py]");
  const std::string entrypoint = Data(r, "entrypoint.sh");
  EXPECT_TRUE(HasLine(entrypoint, "flux R encode --hosts=${hosts} --cores=0 > /tmp/R")) << entrypoint;
  EXPECT_TRUE(HasLine(entrypoint, "    flags=\"-N 1 -n 1  \"")) << entrypoint;
  EXPECT_TRUE(HasLine(Data(r, "init.sh"), "hosts=\"tj-node-0-[0]\""));
  // FLUX_NETWORK_DEVICE is set by neither side: the default.
  EXPECT_TRUE(HasLine(Data(r, "init.sh"), "default_bind = \"tcp://eth0:%p\""));
}

TEST(FluxPlugin, ControllerPanicsRenderNothing) {
  RenderOptions options;
  options.version = trainer::TrainerVersion::kV2_3;
  Result<RenderedObjects> no_trainer =
      Render(Yaml("metadata: {name: tj, namespace: ns}\nspec: {runtimeRef: {name: x}}\n"), Yaml(kRuntime), options);
  ASSERT_FALSE(no_trainer.ok());
  EXPECT_NE(no_trainer.error().message.find("dereferences spec.trainer,"), std::string::npos)
      << no_trainer.error().message;
  Result<RenderedObjects> no_nodes =
      Render(Yaml("metadata: {name: tj, namespace: ns}\nspec: {trainer: {image: x}}\n"), Yaml(kRuntime), options);
  ASSERT_FALSE(no_nodes.ok());
  EXPECT_EQ(no_nodes.error().field_path, "spec.trainer.numNodes");
}

TEST(FluxPlugin, OnlyPodSetsNamedNodeGetVolumes) {
  // Upstream matches the PodSet name "node", while the command is rewritten
  // through the TrainJob whatever the trainer job is called.
  std::string runtime(kRuntime);
  runtime.replace(runtime.find("- name: node"), 11, "- name: main");
  RenderedObjects r = RenderAt(kTrainJob, runtime, trainer::TrainerVersion::kV2_3);
  const doc::Node* pod = doc::FindPath(Job(r, 0), {"template", "spec", "template", "spec"});
  ASSERT_NE(pod, nullptr);
  ExpectValue(pod->Find("volumes"), "[{name: data, emptyDir: {}}]");
  ExpectValue(pod->Find("initContainers"), "[{name: prep, image: busybox, resources: {}}]");
  ExpectValue(Container(r, 0, 0).Find("command"),
              "[/bin/bash, /etc/flux-config/entrypoint.sh, python run.py --epochs 3]");
}

TEST(FluxTemplates, SprintfLikeGo) {
  EXPECT_EQ(SprintfS("a%sb%sc%%", {"1", "%p"}), "a1b%pc%");
  EXPECT_EQ(SprintfS("%s %s", {"x"}), "x %!s(MISSING)");
  EXPECT_EQ(SprintfS("%s", {"x", "y", "z"}), "x%!(EXTRA string=y, string=z)");
  for (trainer::TrainerVersion v : {trainer::TrainerVersion::kV2_2, trainer::TrainerVersion::kV2_3}) {
    Result<const FluxTemplates*> t = LoadFluxTemplates(v);
    ASSERT_TRUE(t.ok());
    EXPECT_EQ((*t)->broker.rfind("[access]\n", 0), 0u);
    EXPECT_NE((*t)->init.find("cat <<EOT >> ${installRoot}/etc/flux/config/broker.toml\n%s\nEOT\n"),
              std::string::npos);
  }
  EXPECT_FALSE(LoadFluxTemplates(trainer::TrainerVersion::kV2_1).ok());
}

}  // namespace
}  // namespace tjr::render
