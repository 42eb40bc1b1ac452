// MPI (plugins/mpi/mpi.go at v2.1.0; spec §1.5.3), with v2.3.0's SSH
// Secret file modes (#3649; runtimepatches spec §5.15).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"
#include "render/upsert.h"

namespace tjr::render {
namespace {

doc::Node KeyToPath(std::string key, std::string path) {
  doc::Node item = doc::Node::Mapping();
  item.Set("key", doc::Node::String(std::move(key)));
  item.Set("path", doc::Node::String(std::move(path)));
  return item;
}

doc::Node One(doc::Node item) {
  doc::Node list = doc::Node::Sequence();
  list.push_back(std::move(item));
  return list;
}

doc::Node WithMode(doc::Node item, std::int64_t mode) {
  item.Set("mode", doc::Node::Int(mode));
  return item;
}

doc::Node SshAuthVolume(const std::string& trainjob_name, trainer::TrainerVersion version) {
  const bool modes = trainer::ReleaseOf(version).mpi_ssh_key_modes;
  doc::Node items = doc::Node::Sequence();
  doc::Node private_key = KeyToPath("ssh-privatekey", "id_rsa");
  doc::Node public_key = KeyToPath("ssh-publickey", "id_rsa.pub");
  doc::Node authorized = KeyToPath("ssh-publickey", "authorized_keys");
  // constants.MPISSHPrivateKeyFileMode 0o640, MPISSHPublicKeyFileMode 0o644.
  items.push_back(modes ? WithMode(std::move(private_key), 0640) : std::move(private_key));
  items.push_back(modes ? WithMode(std::move(public_key), 0644) : std::move(public_key));
  items.push_back(modes ? WithMode(std::move(authorized), 0644) : std::move(authorized));
  doc::Node secret = doc::Node::Mapping();
  secret.Set("secretName", doc::Node::String(trainjob_name + "-mpi-ssh-auth"));
  secret.Set("items", std::move(items));
  if (modes) secret.Set("defaultMode", doc::Node::Int(0400));  // constants.MPISSHAuthDefaultMode
  doc::Node volume = doc::Node::Mapping();
  volume.Set("name", doc::Node::String("mpi-ssh-auth"));
  volume.Set("secret", std::move(secret));
  return volume;
}

doc::Node HostfileVolume(const std::string& trainjob_name) {
  doc::Node item = KeyToPath("hostfile", "hostfile");
  item.Set("mode", doc::Node::Int(0444));
  doc::Node config_map = doc::Node::Mapping();
  config_map.Set("name", doc::Node::String(trainjob_name + "-mpi-hostfile"));
  config_map.Set("items", One(std::move(item)));
  doc::Node volume = doc::Node::Mapping();
  volume.Set("name", doc::Node::String("mpi-hostfile"));
  volume.Set("configMap", std::move(config_map));
  return volume;
}

doc::Node Mount(std::string name, std::string path) {
  doc::Node mount = doc::Node::Mapping();
  mount.Set("name", doc::Node::String(std::move(name)));
  mount.Set("mountPath", doc::Node::String(std::move(path)));
  return mount;
}

bool RunLauncherAsNode(const doc::Node& mpi) {
  const doc::Node* v = mpi.Find("runLauncherAsNode");
  return v != nullptr && v->is_bool() && v->bool_value();
}

std::int64_t NumProcPerNode(const doc::Node& mpi) {
  const doc::Node* v = mpi.Find("numProcPerNode");
  return v != nullptr && v->is_int() ? v->int_value() : 1;
}

// intstr.IntOrString.IntValue(): strings go through strconv.Atoi, 0 on error.
std::int64_t IntValue(const doc::Node& value) {
  if (value.is_int()) return value.int_value();
  if (!value.is_string()) return 0;
  const std::string& s = value.string_value();
  std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  if (i == s.size() || s.find_first_not_of("0123456789", i) != std::string::npos) return 0;
  try {
    return std::stoll(s);
  } catch (...) {
    return 0;
  }
}

}  // namespace

Status EnforceMPI(Info* info, const doc::Node& trainjob) {
  if (info->ml_policy.is_null()) return Ok();
  const doc::Node* mpi_node = info->ml_policy.Find("mpi");
  if (mpi_node == nullptr || mpi_node->is_null()) return Ok();
  doc::Node mpi = *mpi_node;

  const doc::Node* trainer = doc::FindPath(trainjob, {"spec", "trainer"});
  if (trainer != nullptr && trainer->is_null()) trainer = nullptr;
  if (trainer != nullptr) {
    if (const doc::Node* n = trainer->Find("numNodes"); n != nullptr && n->is_int()) {
      if (PodSet* node = info->FindPodSetByName(kNode)) {
        node->count = RunLauncherAsNode(mpi) ? static_cast<std::int32_t>(std::max<std::int64_t>(n->int_value() - 1, 1))
                                             : static_cast<std::int32_t>(n->int_value());
      }
    }
  }
  const doc::Node* trainer_npp = trainer != nullptr ? trainer->Find("numProcPerNode") : nullptr;
  if (trainer_npp != nullptr && !trainer_npp->is_null()) {
    // IntValue() is truncated to int32 upstream.
    mpi.Set("numProcPerNode", doc::Node::Int(static_cast<std::int32_t>(IntValue(*trainer_npp))));
  } else if (NumProcPerNode(mpi) == 1) {
    Result<NodeResources> resources = TrainerResources(*info, trainjob);
    if (!resources.ok()) return resources.take_error();
    if (std::int64_t gpu = GpuCount(*resources); gpu > 1) mpi.Set("numProcPerNode", doc::Node::Int(gpu));
  }
  info->ml_policy.Set("mpi", mpi);

  const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
  const std::string implementation = doc::StringAtPath(mpi, {"mpiImplementation"});
  const std::string ssh_path = doc::StringAtPath(mpi, {"sshAuthMountPath"}, "/root/.ssh");
  for (PodSet& ps : info->pod_sets) {
    if (ps.name != kNode && ps.name != kLauncher) continue;
    UpsertVolumes(&ps.volumes, One(SshAuthVolume(name, info->version)));
    if (ps.name == kLauncher) UpsertVolumes(&ps.volumes, One(HostfileVolume(name)));
    for (PodSetContainer& c : ps.containers) {
      if (c.name != kNode) continue;
      UpsertVolumeMounts(&c.volume_mounts, One(Mount("mpi-ssh-auth", ssh_path)));
      if (ps.name != kLauncher) continue;
      UpsertVolumeMounts(&c.volume_mounts, One(Mount("mpi-hostfile", "/etc/mpi")));
      if (implementation != "OpenMPI") {
        // Upstream prints the *string pointer's address here (%v).
        return MakeError({}, "", "MPI implementation for " + implementation + " doesn't supported");
      }
      doc::Node env = doc::Node::Sequence();
      env.push_back(EnvValue("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile"));
      env.push_back(EnvValue("OMPI_MCA_orte_keep_fqdn_hostnames", "true"));
      env.push_back(EnvValue("OMPI_MCA_orte_set_default_slots", std::to_string(NumProcPerNode(mpi))));
      env.push_back(EnvValue("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10"));
      UpsertEnvVars(&c.env, env);
    }
  }
  return Ok();
}

Result<doc::Node> BuildMPIHostfile(const Info& info, const doc::Node& trainjob) {
  if (info.ml_policy.is_null()) return doc::Node();
  const doc::Node* mpi = info.ml_policy.Find("mpi");
  if (mpi == nullptr || mpi->is_null()) return doc::Node();
  const bool launcher_as_node = RunLauncherAsNode(*mpi);
  const std::string slots = " slots=" + std::to_string(NumProcPerNode(*mpi)) + "\n";
  std::vector<const PodSet*> listed;
  std::int64_t hosts = 0;
  for (const PodSet& ps : info.pod_sets) {
    if (!((launcher_as_node && ps.name == kLauncher) || ps.name == kNode)) continue;
    if (doc::StringAtPath(*mpi, {"mpiImplementation"}) != "OpenMPI") continue;
    listed.push_back(&ps);
    hosts = ps.endpoints.size() > std::numeric_limits<std::int64_t>::max() - hosts
                ? std::numeric_limits<std::int64_t>::max()
                : hosts + ps.endpoints.size();
  }
  const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
  const std::string config_map_name = name + "-mpi-hostfile";
  std::string hostfile;
  for (const PodSet* ps : listed) {
    for (std::int64_t i = 0; i < ps->endpoints.size(); ++i) {
      // The API server refuses a ConfigMap whose keys and values hold more
      // than 1 MiB (core.MaxSecretSize), so the controller never gets past
      // creating it. Stopped here rather than listing every host.
      if (hostfile.size() + std::string_view("hostfile").size() > kMaxConfigMapBytes) {
        Diagnostic error = MakeError(trainjob.location(), "",
                                     "ConfigMap " + config_map_name + " would list " + std::to_string(hosts) +
                                         " MPI hosts in more than " + std::to_string(kMaxConfigMapBytes) +
                                         " bytes: the API server refuses a ConfigMap over 1 MiB, so the Trainer "
                                         "controller cannot create it and the TrainJob never starts");
        error.rule = kRuleMpiHostfileTooLarge;
        return error;
      }
      hostfile += ps->endpoints.At(i);
      hostfile += slots;
    }
  }
  doc::Node config_map = OwnedObject(trainjob, "v1", "ConfigMap", config_map_name);
  doc::Node data = doc::Node::Mapping();
  data.Set("hostfile", doc::Node::String(std::move(hostfile)));
  config_map.Set("data", std::move(data));
  return config_map;
}

}  // namespace tjr::render
