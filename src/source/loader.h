#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "doc/objects.h"
#include "source/object_types.h"
#include "source/parse_cache.h"
#include "source/tree.h"
#include "source/walk.h"

namespace tjr::source {

struct LoadOptions {
  /// The kinds to keep; the rest are counted in ManifestSet::ignored.
  std::vector<ObjectType> types = TrainerObjectTypes();
  /// Documents with neither apiVersion nor kind that this accepts are kept
  /// in ManifestSet::untyped instead of being errors (Flyte task documents).
  std::function<bool(const doc::Node&)> accept_untyped;
  /// Extensions read when searching a directory (kubectl's set).
  std::vector<std::string> extensions = {".json", ".yaml", ".yml"};
  /// The namespace of a namespaced object written without one
  /// (`--namespace`, as `kubectl apply -n`).
  std::string default_namespace = "default";
  /// Set when the namespace was given explicitly: a namespaced object in
  /// another namespace is then an error, as kubectl refuses it.
  bool enforce_namespace = false;
  /// Larger files (and stdin) are refused before they are parsed.
  std::size_t max_file_bytes = std::size_t{64} << 20;
  /// Files are read and parsed on this many threads (0: one per core); the
  /// result is the same for any number.
  unsigned threads = 0;
  /// Keeps memory flat however many objects there are: when it returns a
  /// skeleton for exactly one kept object of a file, the object is replaced
  /// by that skeleton (Manifest::released), and ReloadObject reads the
  /// whole object again when it is needed. Files with several such objects
  /// keep them whole, so no file is parsed more than twice.
  std::function<std::optional<doc::Node>(const doc::Node& object)> release;
  /// The bytes of released files are kept, in file order, until they add
  /// up to this much (Manifest::released_text): re-reading a file costs a
  /// Git object inflate or a system call, and its bytes are a few percent
  /// of its parsed nodes. Files past the budget are read again.
  std::size_t release_kept_bytes = std::size_t{32} << 20;
  /// With `release`: the first read of a one-document file leaves out what
  /// the skeleton drops, the values of the keys under the root's
  /// `release_prune_key` but `release_prune_keep` (yaml::ReadOptions); a
  /// file whose object turns out not to be released is read again in full.
  std::string release_prune_key;
  std::string release_prune_keep;
  /// Files whose name and bytes another load with this cache parsed are
  /// not parsed again (not with `release`, whose reads differ).
  ParseCache* parse_cache = nullptr;
  /// What a manifest repository holds besides objects (documents that are
  /// no Kubernetes object, tool configuration such as a Kustomization, Helm
  /// templates) is skipped with a note; with this set, each is an input
  /// error instead (`--strict-inputs`).
  bool strict_inputs = false;
};

/// A kept document that is no Kubernetes object.
struct UntypedDocument {
  doc::Node document;
  std::string file;
};

/// One kept object.
struct Manifest {
  /// The object as written, except metadata.namespace: set to the default
  /// when a namespaced object has none, removed from a cluster-scoped one.
  /// Every node keeps its FILE:LINE:COL.
  doc::Node object;
  /// apiVersion/kind/namespace/name, namespace as above.
  doc::ObjectId id;
  /// The file it was read from, as named in messages ("<stdin>" for "-").
  std::string file;
  /// Set when LoadOptions::release replaced `object` by a skeleton: what to
  /// pass to Tree::Read for ReloadObject, and the hash of the bytes read
  /// the first time.
  std::string released_from;
  std::uint64_t source_hash = 0;
  /// The bytes read the first time, within LoadOptions::release_kept_bytes;
  /// ReloadObject parses these instead of reading the file again.
  std::shared_ptr<const std::string> released_text;
  /// Set when the object was written with metadata.generateName and no
  /// name (`kubectl create`): the prefix. `id.name` and the object's
  /// metadata.name are then a placeholder (see GeneratedNamePlaceholder).
  std::string generate_name;

  bool released() const { return !released_from.empty(); }
  const Location& location() const { return object.location(); }
};

/// apiVersion and kind of objects that were not kept.
struct KindKey {
  std::string api_version;
  std::string kind;
  friend auto operator<=>(const KindKey&, const KindKey&) = default;
  friend bool operator==(const KindKey&, const KindKey&) = default;
};

/// An object defined more than once: a `duplicate-object` finding at each
/// copy, and none of them kept. What refers to it (a TrainJob's runtimeRef)
/// is told so instead of "not found".
struct DuplicateObject {
  std::string group;  ///< the API group ("trainer.kubeflow.org"): versions are one object
  std::string kind;
  std::string namespace_;  ///< "" for a cluster-scoped kind
  std::string name;
  std::vector<Location> copies;  ///< where each copy starts, in input order
};

/// The name the API server could give an object written with
/// `generate_name`, at its longest: apiserver's names.SimpleNameGenerator
/// (k8s.io/apiserver/pkg/storage/names/generate.go) cuts the prefix to 58
/// characters (63 - 5) and appends 5 random ones of
/// utilrand's alphabet "bcdfghjklmnpqrstvwxz2456789". `index` tells the
/// objects with one prefix apart (0 gives "xxxxx", the others their index
/// in that alphabet), so each renders on its own.
std::string GeneratedNamePlaceholder(std::string_view generate_name, std::size_t index = 0);

/// Everything read from the inputs, including what went wrong: a bad file
/// is reported and the others are still loaded.
struct ManifestSet {
  /// Kept objects in input order: files as ExpandPaths orders them, then
  /// stream order within a file, List items in place of their List.
  std::vector<Manifest> manifests;
  /// The files read, in order.
  std::vector<std::string> files;
  /// Documents LoadOptions::accept_untyped kept, in input order.
  std::vector<UntypedDocument> untyped;
  /// How many objects of each other kind were ignored (for --verbose).
  std::map<KindKey, std::size_t> ignored;
  /// Files read or found that held nothing the loader looks at: Helm
  /// templates, files whose every document was skipped (not an object, or
  /// configuration of a tool). The files of charts' templates/ folders
  /// first, by name, then the others in input order.
  std::vector<std::string> skipped_files;
  /// The TrainJob documents of kustomize patch files (skipped as objects:
  /// a patch names only what it changes), for the check of their fields'
  /// types (validate::ValidateTrainJobPatchTypes); in input order.
  std::vector<doc::Node> trainjob_patches;
  /// Errors, and notes on what was skipped; in the order found.
  Diagnostics diagnostics;
  /// The objects dropped as duplicates, in the order of their keys.
  std::vector<DuplicateObject> duplicates;

  bool has_errors() const;
};

/// Reads every manifest under `paths` from `tree` (see ExpandPaths for which
/// files; "-" reads stdin). Per file: unreadable, too large or malformed ->
/// one error, the file's objects are lost; a Helm template (a file of a
/// chart holding template actions, or of its templates/) -> skipped. Per
/// document: not a Kubernetes object or tool configuration
/// (ClassifyDocument) -> skipped with a note (an error under
/// `strict_inputs`). Per kept object: no metadata.name or a namespace
/// outside an enforced one -> error and the object is dropped. Objects of
/// the same group/kind/namespace/name -> a `duplicate-object` finding at
/// each copy, and none of them is kept. Never throws.
ManifestSet LoadManifests(const Tree& tree, const std::vector<std::string>& paths,
                          const LoadOptions& options = {});

/// The same for inputs ExpandPaths found already (their InputFile::chart
/// and skipped files included): a caller that walked a tree once and loads
/// it file by file (an inventory) does not look for charts and
/// kustomizations above every file again.
ManifestSet LoadExpanded(const Tree& tree, ExpandedPaths inputs, const LoadOptions& options = {});

/// The same, from the local file system.
ManifestSet LoadManifests(const std::vector<std::string>& paths, const LoadOptions& options = {});

/// The whole object of a released manifest, read from its kept bytes or
/// from `tree` and admitted as LoadManifests did the first time (`options`
/// as then). An error when the file's bytes changed in between or the
/// object is no longer in it.
/// Safe to call from several threads when `tree` is.
Result<doc::Node> ReloadObject(const Tree& tree, const Manifest& manifest, const LoadOptions& options);

/// One already-parsed file: its name and documents in stream order.
struct ParsedFile {
  std::string name;
  std::vector<doc::Node> documents;
};

/// What LoadManifests makes of files once they are parsed, for callers that
/// already hold the documents (the conformance runner): the same Lists,
/// kinds, metadata, namespace and duplicate rules and messages.
ManifestSet AdmitDocuments(const std::vector<ParsedFile>& files, const LoadOptions& options = {});

}  // namespace tjr::source
