// MPI plugin through the pipeline (spec §1.5.3, §1.5.6, §1.6), with the
// shape of the shipped deepspeed runtime (launcher labelled trainer).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "doc/path.h"
#include "render/plugins.h"
#include "render/render_test_util.h"

namespace tjr::render {
namespace {

using namespace testing;  // NOLINT

constexpr std::string_view kRuntime = R"(
metadata: {name: deepspeed-distributed}
spec:
  mlPolicy:
    numNodes: 1
    mpi: {numProcPerNode: 1, mpiImplementation: OpenMPI, sshAuthMountPath: /home/mpiuser/.ssh, runLauncherAsNode: true}
  template:
    spec:
      network: {subdomain: sub}
      replicatedJobs:
      - name: launcher
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                containers:
                - {name: node, image: ds, env: [{name: OMPI_MCA_orte_set_default_slots, value: x}]}
      - name: node
        template:
          spec:
            template:
              spec:
                volumes: [{name: data, emptyDir: {}}]
                containers:
                - {name: node, image: ds, command: [/usr/sbin/sshd, -De]}
)";

constexpr std::string_view kTrainJob = R"(
metadata: {name: tj, namespace: ns, uid: "1234"}
spec:
  runtimeRef: {name: deepspeed-distributed}
  suspend: true
  trainer:
    numNodes: 3
    numProcPerNode: 4
    resourcesPerNode: {requests: {cpu: 2}}
)";

TEST(MPIPlugin, VolumesMountsEnvAndCounts) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  // Launcher: ssh + hostfile volumes, both mounts, OMPI env (the runtime's
  // same-name entry keeps its position with the new value).
  ExpectValue(doc::FindPath(Job(r, 0), {"template", "spec", "template", "spec", "volumes"}), R"([
    {name: mpi-ssh-auth, secret: {secretName: tj-mpi-ssh-auth, items: [
      {key: ssh-privatekey, path: id_rsa}, {key: ssh-publickey, path: id_rsa.pub},
      {key: ssh-publickey, path: authorized_keys}]}},
    {name: mpi-hostfile, configMap: {name: tj-mpi-hostfile, items: [{key: hostfile, path: hostfile, mode: 292}]}}])");
  ExpectValue(Container(r, 0, 0).Find("volumeMounts"), R"([
    {name: mpi-ssh-auth, mountPath: /home/mpiuser/.ssh}, {name: mpi-hostfile, mountPath: /etc/mpi}])");
  ExpectValue(Container(r, 0, 0).Find("env"), R"([
    {name: OMPI_MCA_orte_set_default_slots, value: "4"},
    {name: OMPI_MCA_orte_default_hostfile, value: /etc/mpi/hostfile},
    {name: OMPI_MCA_orte_keep_fqdn_hostnames, value: "true"},
    {name: OMPI_MCA_plm_rsh_args, value: -o ConnectionAttempts=10}])");
  // Node: runtime volume first, then ssh; runLauncherAsNode => numNodes-1.
  ExpectValue(doc::FindPath(Job(r, 1), {"template", "spec", "template", "spec", "volumes"}), R"([
    {name: data, emptyDir: {}},
    {name: mpi-ssh-auth, secret: {secretName: tj-mpi-ssh-auth, items: [
      {key: ssh-privatekey, path: id_rsa}, {key: ssh-publickey, path: id_rsa.pub},
      {key: ssh-publickey, path: authorized_keys}]}}])");
  ExpectValue(doc::FindPath(Job(r, 1), {"template", "spec", "parallelism"}), "2");
  ExpectValue(doc::FindPath(Job(r, 0), {"template", "spec", "parallelism"}), "1");
  // resourcesPerNode goes to the trainer job and (runLauncherAsNode) `node`.
  ExpectValue(Container(r, 0, 0).Find("resources"), "{requests: {cpu: '2'}}");
  ExpectValue(Container(r, 1, 0).Find("resources"), "{requests: {cpu: '2'}}");
  // Only the trainer-labelled job gets replicas: 1 from the builder.
  ExpectValue(Job(r, 0).Find("replicas"), "1");
  EXPECT_EQ(Job(r, 1).Find("replicas"), nullptr);
  ExpectValue(doc::FindPath(JobSet(r), {"spec", "suspend"}), "true");
}

// §1.5.3 Build: hostfile lists the launcher (runLauncherAsNode) then the
// node pods, using the template subdomain (§1.5.6 IdentifyPodNetwork).
TEST(MPIPlugin, HostfileConfigMapAndSecretNote) {
  RenderedObjects r = RenderYaml(kTrainJob, kRuntime);
  const doc::Node& cm = ObjectOfKind(r, "v1", "ConfigMap");
  ExpectValue(&cm, R"(
    {kind: ConfigMap, apiVersion: v1,
     metadata: {name: tj-mpi-hostfile, namespace: ns, ownerReferences: [{apiVersion: trainer.kubeflow.org/v1alpha1,
       kind: TrainJob, name: tj, uid: "1234", controller: true, blockOwnerDeletion: true}]},
     data: {hostfile: "tj-launcher-0-0.sub slots=4\ntj-node-0-0.sub slots=4\ntj-node-0-1.sub slots=4\n"}})");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].message.find("tj-mpi-ssh-auth"), std::string::npos);
  ASSERT_EQ(r.objects.size(), 2u);
  EXPECT_EQ(doc::StringAtPath(r.objects[1], {"kind"}), "JobSet");
}

// §1.5.3: runtime npp 1 and >1 GPUs => npp = GPUs (no TrainJob npp).
TEST(MPIPlugin, GpuCountBecomesSlots) {
  RenderedObjects r = RenderYaml(R"(
metadata: {name: tj}
spec:
  trainer:
    resourcesPerNode: {limits: {nvidia.com/gpu: 8}}
)",
                                 kRuntime);
  ExpectValue(&Container(r, 0, 0).Find("env")->items()[0], "{name: OMPI_MCA_orte_set_default_slots, value: '8'}");
  EXPECT_EQ(doc::StringAtPath(ObjectOfKind(r, "v1", "ConfigMap"), {"data", "hostfile"}),
            "tj-launcher-0-0.sub slots=8\ntj-node-0-0.sub slots=8\n");
}

// A node count the API server accepts but whose hostfile no ConfigMap can
// hold: an error naming the limit, found without listing every host.
TEST(MPIPlugin, HostfileOverAConfigMapsLimitIsAnError) {
  RenderOptions options;
  options.version = trainer::TrainerVersion::kV2_1;
  Result<RenderedObjects> r = Render(Yaml(R"(
metadata: {name: tj}
spec:
  trainer: {numNodes: 1073741824}
)"),
                                     Yaml(kRuntime), options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rule, kRuleMpiHostfileTooLarge);
  EXPECT_NE(r.error().message.find("would list 1073741824 MPI hosts in more than 1048576 bytes"), std::string::npos)
      << r.error().message;
  // 30,000 hosts (about 0.8 MB) still fit.
  RenderedObjects fits = RenderYaml(R"(
metadata: {name: tj}
spec:
  trainer: {numNodes: 30000}
)",
                                    kRuntime);
  const std::string hostfile = doc::StringAtPath(ObjectOfKind(fits, "v1", "ConfigMap"), {"data", "hostfile"});
  EXPECT_EQ(std::count(hostfile.begin(), hostfile.end(), '\n'), 30000);
}

TEST(Endpoints, DescribedNotListed) {
  const Endpoints endpoints{"tj-node-", "sub", 3, 2};
  EXPECT_EQ(endpoints.size(), 6);
  EXPECT_EQ(endpoints.At(0), "tj-node-0-0.sub");
  EXPECT_EQ(endpoints.At(5), "tj-node-2-1.sub");
  EXPECT_EQ((Endpoints{"x-", "s", std::numeric_limits<std::int64_t>::max(), 2}).size(),
            std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ((Endpoints{"x-", "s", -1, 2}).size(), 0);
}

}  // namespace
}  // namespace tjr::render
