#!/bin/sh
# Prints what real kubectl makes of a `merge` case: input/object.yaml patched
# with every input/patch*.yaml in name order, one `kubectl patch --local`
# after another. This is how the expected.yaml of Pod, PodTemplate and Job
# cases is made; review its output like code before committing it.
#
#   conformance/kubectl-oracle.sh conformance/merge/CASE > conformance/merge/CASE/expected.yaml
set -eu
export LC_ALL=C  # patch files apply in byte order of their names, as in tjrender
case_dir=${1:?usage: kubectl-oracle.sh CASE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$case_dir/input/object.yaml" "$work/current.yaml"
found=0
for patch in "$case_dir"/input/patch*.yaml; do
  [ -e "$patch" ] || continue
  found=1
  kubectl patch --local -f "$work/current.yaml" --type strategic \
    --patch-file "$patch" -o yaml > "$work/next.yaml"
  mv "$work/next.yaml" "$work/current.yaml"
done
[ "$found" = 1 ] || { echo "kubectl-oracle.sh: no input/patch*.yaml in $case_dir" >&2; exit 2; }
cat "$work/current.yaml"
