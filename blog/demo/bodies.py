"""Post bodies for the demo blog, as raw StreamField data for `BlogPage.body` (`BodyBlock`).

`body_for` returns the hand-written body of one of the thirteen reference posts; every body
uses every block type. `generated_body` assembles a short, varied body for synthetic benchmark
posts from templates and word lists, chosen with a generator seeded by the post number.

Figures and tables marked illustrative are examples for the reader to replace with their own
measurements, not results."""

from __future__ import annotations

import random
import uuid
import zlib
from html import escape
from typing import Any

EMBED_URL = "https://vimeo.com/76979871"
EMBED_CAPTION = "Placeholder video for the demo site; a recorded walkthrough would go here."
TEAM = "Cedana engineering team"

Block = tuple[str, Any]


# ----------------------------------------------------------------------------------------------
# Small constructors for raw block values


def _h(text: str, anchor: str = "") -> Block:
    return ("heading", {"text": text, "anchor": anchor})


def _p(html: str) -> Block:
    return ("paragraph", html)


def _img(alt: str, caption: str) -> Block:
    return ("image", {"image": None, "alt_text": alt, "decorative": False, "caption": caption})


def _quote(text: str, attribution: str = TEAM) -> Block:
    return ("quote", {"quote": text, "attribution": attribution})


def _code(language: str, code: str, caption: str = "") -> Block:
    return ("code", {"language": language, "code": code.strip("\n"), "caption": caption})


def _callout(kind: str, title: str, body: str) -> Block:
    return ("callout", {"kind": kind, "title": title, "body": body})


def _table(caption: str, headings: list[str], rows: list[list[str]]) -> Block:
    """Cells are rich text; one given as plain words becomes a paragraph of them."""
    return (
        "table",
        {
            "caption": caption,
            "table": {
                "columns": [{"type": "rich_text", "heading": h} for h in headings],
                "rows": [{"values": [_cell(cell) for cell in row]} for row in rows],
                "caption": "",
            },
        },
    )


def _cell(text: str) -> str:
    return text if text.startswith("<") else f"<p>{escape(text)}</p>"


def _embed(caption: str = EMBED_CAPTION) -> Block:
    return ("embed", {"embed": EMBED_URL, "caption": caption})


# ----------------------------------------------------------------------------------------------
# The thirteen reference posts

POST_BODIES: dict[str, list[Block]] = {}

POST_BODIES["era-of-stateful-inference"] = [
    _p(
        "<p>For most of the short history of LLM serving, an inference replica was treated as "
        "stateless: weights on disk, a process that loads them, and requests that come and go. "
        "That picture is getting harder to defend. Context windows have grown, agentic sessions "
        "stay open for minutes or hours, and a single model instance now often spans eight or "
        "sixteen GPUs. The state a replica builds up while it serves is becoming a large part of "
        "what it costs to run.</p>"
    ),
    _h("Where the state lives"),
    _p(
        "<p>During decoding, each active sequence keeps a key-value cache for every layer. Its "
        "size grows with context length and with the number of concurrent sessions, and on a "
        "tensor-parallel deployment it is spread across every GPU in the instance. Prefix caches, "
        "speculative-decoding drafts and scheduler queues add more. None of it is in the model "
        "checkpoint, and all of it disappears when the process does.</p>"
    ),
    _img(
        "Detail of the blueprint: eight GPU cards inside one node, each with a row of memory "
        "cells partly filled in blue, beside a vertical gauge whose blue session-state blocks "
        "climb toward a red dashed VRAM capacity line.",
        "Session state grows on every GPU of the instance until it meets the memory the weights "
        "leave free.",
    ),
    _p(
        "<p>A rough estimate is enough to see the scale. The snippet below uses the usual "
        "formula for a dense transformer with grouped-query attention; plug in your own model's "
        "shape.</p>"
    ),
    _code(
        "python",
        """
def kv_cache_bytes(layers, kv_heads, head_dim, tokens, bytes_per_value=2):
    # Two tensors (K and V) per layer, per token.
    return 2 * layers * kv_heads * head_dim * tokens * bytes_per_value

# An illustrative 70B-class shape: 80 layers, 8 KV heads of 128 dims, fp16.
per_session = kv_cache_bytes(80, 8, 128, tokens=32_000)
print(f"{per_session / 2**30:.1f} GiB per 32k-token session")  # about 9.8 GiB
""",
        "kv_estimate.py: a back-of-the-envelope estimate, not a measurement",
    ),
    _h("Why cost per token depends on it"),
    _p(
        "<p>When an instance restarts, every token in those caches has to be computed again "
        "before the sessions can continue. Prefill is the expensive part of inference, so a "
        "restart does not only cost the minutes of downtime; it pays a second time for work the "
        "fleet has already done. The longer the sessions, the larger that bill.</p>"
    ),
    _table(
        "What a replica holds, and what survives a process restart",
        ["State", "Typical size", "Survives a restart?"],
        [
            ["Model weights", "Tens to hundreds of GB", "<p><b>Yes</b>, reloaded from storage</p>"],
            ["KV cache", "Gigabytes per long session", "<p>No</p>"],
            ["Prefix cache", "Varies with traffic", "<p>No</p>"],
            ["Scheduler queue", "Small", "<p>No; clients have to retry</p>"],
        ],
    ),
    _callout(
        "note",
        "Rules of thumb, not benchmarks",
        "<p>The numbers here depend heavily on model shape, quantisation and batch size. "
        "Measure your own deployment before using them in a capacity plan.</p>",
    ),
    _quote("A stateless replica is one whose state you have decided not to count."),
    _h("What changes when state can be saved"),
    _p(
        "<p>If the running process, including its GPU memory, can be checkpointed and restored, "
        "a replacement instance resumes with its caches warm instead of rebuilding them from "
        "prompts. State stops being a liability and becomes something you can move: off a node "
        "that is about to be reclaimed, onto a larger GPU, or out of memory entirely while a "
        "session sits idle.</p>"
    ),
    _embed(),
    _p(
        "<p>We will follow up with measurements from our own test deployments. Until then the "
        "useful habit is simple: when you estimate cost per token, include the state an instance "
        "has built up, not only the weights it started with.</p>"
    ),
]

POST_BODIES["frontier-restart-error-budget"] = [
    _p(
        "<p>A 99.9% monthly availability target allows about 43 minutes of unavailability in a "
        "30-day month. For a small stateless service that is a comfortable margin. For a "
        "frontier-scale model that needs twenty minutes or more to come back after a restart, a "
        "single incident can spend half of it.</p>"
    ),
    _h("The arithmetic", "arithmetic"),
    _p(
        "<p>The budget is simply <code>(1 - SLO) x period</code>. The restart is less simple. "
        "It includes finding a healthy node, pulling and loading hundreds of gigabytes of "
        "weights, compiling kernels or capturing CUDA graphs, warming caches and passing health "
        "checks. Each step can be timed on its own, and each one counts against the same "
        "minutes.</p>"
    ),
    _code(
        "python",
        """
MINUTES_PER_MONTH = 30 * 24 * 60
slo = 0.999
budget = (1 - slo) * MINUTES_PER_MONTH  # 43.2 minutes

for restart_minutes in (1, 10, 20, 30):
    share = restart_minutes / budget
    print(f"{restart_minutes:>3} min restart uses {share:.0%} of the monthly budget")
""",
        "error_budget.py",
    ),
    _img(
        "Detail of the blueprint: a row of forty-three squares, one per minute of budget, twenty "
        "solid red and ten hatched red, and below them a single blue square beside a save icon.",
        "Each square is roughly one minute of a 99.9% monthly budget.",
    ),
    _table(
        "Share of a 43.2-minute budget used by one restart (illustrative restart times)",
        ["Restart path", "Minutes", "Share of budget (%)"],
        [
            ["Cold restart, weights from object storage", "30", "69.4"],
            ["Cold restart, weights cached on the node", "20", "46.3"],
            ["Restore from a process checkpoint", "1", "2.3"],
        ],
    ),
    _h("What replicas change"),
    _p(
        "<p>Replicas help when the load balancer can route around the failed instance and the "
        "remaining replicas have headroom to absorb its traffic. They help much less when every "
        "replica shares a failure domain, or when capacity is so tight that losing one pushes "
        "latency past the SLO anyway. For the largest models a replica may be a whole rack, so "
        "idle headroom is expensive and often the first thing to be cut.</p>"
    ),
    _callout(
        "warning",
        "Measure the whole path",
        "<p>A restore benchmark usually starts with a healthy node and a checkpoint on fast "
        "storage. A real incident starts with detection and placement. Time those steps too, or "
        "the comparison will flatter the restore.</p>",
    ),
    _quote("The error budget does not care which step was slow; it only counts minutes."),
    _h("Comparing a measured restore with your SLO"),
    _p(
        "<p>Take your measured restore time, add detection and scheduling latency from your own "
        "incident history, and divide by the budget. If the answer is a few percent, a failure "
        "becomes something you can absorb several times a month. If it is half, one bad night "
        "decides the month.</p>"
    ),
    _embed(),
    _p(
        "<p>The same exercise works for stricter targets; at 99.99% the monthly budget is "
        "about four minutes, and only the restore path fits inside it at all.</p>"
    ),
]

POST_BODIES["recovery-time-you-can-put-in-a-filing"] = [
    _p(
        "<p>When a customer contract, an audit or a risk register asks for the recovery time of "
        "an LLM service, the number has to mean something specific. <i>Restore takes about a "
        "minute</i> is a benchmark. <i>We are serving again within N minutes of a GPU "
        "failure</i> is a commitment, and it contains several steps a benchmark leaves out.</p>"
    ),
    _h("Define the interval first"),
    _p(
        "<p>Start the clock when the failure happens, not when someone notices it. Stop it when "
        "the service passes the same check the load balancer uses and answers real traffic at "
        "acceptable latency. Everything in between belongs in the number:</p>"
        "<ul><li>detection and the decision to act</li><li>placement on healthy hardware</li>"
        "<li>restore or reload</li><li>warm-up and shifting traffic back</li></ul>"
    ),
    _table(
        "The phases of recovery time and who owns them",
        ["Phase", "Owner", "How to measure"],
        [
            ["Detection", "Monitoring", "<p>Alert time minus fault time, from logs</p>"],
            ["Placement", "Scheduler or platform", "<p>Time until a replacement is allocated</p>"],
            ["Restore or reload", "Serving platform", "<p>Start of restore to process ready</p>"],
            ["Warm-up and traffic", "Serving team", "<p>Ready to first good production reply</p>"],
        ],
    ),
    _img(
        "Detail of the blueprint: a form with one boxed field holding a short blue mark, next to "
        "a long grey dashed bar marked twenty to thirty minutes and a short blue bar with a timer "
        "marked about one minute.",
        "Only the full interval, not the restore step alone, belongs in the field.",
    ),
    _h("Test it the way it will fail"),
    _p(
        "<p>Run drills that take away a real node under realistic load, not only a process on a "
        "healthy machine. Repeat them, keep the distribution, and report a high percentile rather "
        "than the best run. If the restore depends on a recent checkpoint, let the checkpoint age "
        "in the drill the way it would in production.</p>"
    ),
    _code(
        "bash",
        """
# Fault-injection drill: record wall-clock time at each phase boundary.
t0=$(date +%s)                # fault injected
./wait-for-alert.sh           # returns when the pager fires
t1=$(date +%s)
./wait-for-ready.sh https://inference.internal/health
t2=$(date +%s)
echo "detect=$((t1 - t0))s recover=$((t2 - t1))s total=$((t2 - t0))s"
""",
        "drill.sh: the helper scripts stand in for your own tooling",
    ),
    _callout(
        "tip",
        "Write the assumptions next to the number",
        "<p>State which failures it covers (one GPU, one node, one zone), how old a checkpoint "
        "may be, and what spare capacity must exist. A number without its assumptions is hard "
        "to defend later.</p>",
    ),
    _quote("If a drill cannot reproduce the number, the number is not ready for a filing."),
    _h("What a restore benchmark is still good for"),
    _p(
        "<p>It bounds the step you control most directly, and it shows whether the rest of the "
        "pipeline has become the bottleneck. Often it has: once restore is down to about a "
        "minute, detection and scheduling dominate the total, and that is where the next round "
        "of work should go.</p>"
    ),
    _embed(),
]

POST_BODIES["node-dies-under-jupyter-session"] = [
    _p(
        "<p>Notebooks feel durable because the file autosaves. But an <code>.ipynb</code> file "
        "holds source and rendered outputs, not the kernel. Variables, loaded models, open "
        "connections and tensors in GPU memory live in a separate process, and when the node "
        "under that process fails, the file survives and the session does not.</p>"
    ),
    _h("What the notebook file keeps"),
    _p(
        "<p>The file keeps cell source, the outputs as they were last rendered, and some "
        "metadata. It does not keep in-memory objects, the order in which cells were actually "
        "run, random number state, GPU allocations or a data loader halfway through an epoch. "
        "Running everything again from the top often does not rebuild the same state, "
        "especially when cells ran out of order or read data that has since changed.</p>"
    ),
    _img(
        "Detail of the blueprint: a notebook document with four code cells and a green tick, "
        "beside a large circle for the kernel holding a grey band, a dark memory block and a GPU "
        "card, with red dashed lines to a cross, a clock and a moon.",
        "The file is saved; the kernel's memory is what a failure, a timeout or an idle cull "
        "takes away.",
    ),
    _code(
        "python",
        """
# Cell 3: an hour of work that exists only inside the kernel.
import torch

model = load_finetuned("run-17")        # weights now in GPU memory
cache = build_embedding_cache(corpus)   # forty minutes on one GPU
torch.manual_seed(0)
# Nothing above reaches notebook.ipynb except this source text.
""",
        "Illustrative cell; the helper functions stand in for your own code",
    ),
    _h("Three ways the kernel goes away"),
    _table(
        "Common ways a kernel is lost",
        ["Event", "What happens", "Notebook file"],
        [
            ["Node or GPU failure", "The kernel dies with the node", "<p>Intact to last save</p>"],
            ["Session timeout", "The platform stops the pod", "<p>Intact</p>"],
            ["Idle culling", "Idle kernels are shut down to free GPUs", "<p>Intact</p>"],
        ],
    ),
    _p(
        "<p>In every case the file is fine and the session state is gone. Idle culling is often "
        "the most frequent of the three, because it is a policy rather than a fault: shared GPU "
        "platforms reclaim quiet kernels to keep expensive hardware busy.</p>"
    ),
    _callout(
        "note",
        "What a process checkpoint cannot bring back",
        "<p>Restoring a checkpointed kernel returns its memory, including GPU memory, as it was. "
        "It cannot undo changes outside the process: an expired database session, a deleted "
        "remote file or a token that timed out. Notebook code should still handle "
        "reconnects.</p>",
    ),
    _quote(
        "Saving the notebook saves what you typed. Checkpointing the kernel saves what you "
        "computed."
    ),
    _h("Checkpoints as a safety net"),
    _p(
        "<p>With periodic or on-demand checkpoints of the kernel process, a node failure costs "
        "the work since the last checkpoint instead of the whole session. The same mechanism lets "
        "a platform cull idle kernels without destroying anything: checkpoint, free the GPU, and "
        "restore when the user comes back.</p>"
    ),
    _embed(),
]

POST_BODIES["one-gpu-fails-71-healthy-gpus-wait"] = [
    _p(
        "<p>A rack-scale system such as an NVL72 joins 72 GPUs into a single NVLink domain. "
        "That is what makes it attractive for serving and training the largest models with "
        "tensor parallelism across the whole rack. It also means that when one GPU in the group "
        "fails, the workload cannot simply carry on with the other 71.</p>"
    ),
    _h("Why one fault stops the group"),
    _p(
        "<p>With tensor parallelism, each layer's work is split across every participating GPU, "
        "and each step needs every shard. Lose one and the collective operations the others are "
        "waiting in never complete. The healthy GPUs are not broken, but they sit idle until the "
        "group is rebuilt around a replacement.</p>"
    ),
    _img(
        "Detail of the blueprint: a tall rack of eighteen trays with four grey GPU cells each, "
        "one cell filled red and struck out, beside a long grey bar and a very short blue bar "
        "next to a save icon.",
        "One failed cell in seventy-two; the grey bar is how long the other seventy-one wait.",
    ),
    _h("Counting the cost in GPU-hours"),
    _p(
        "<p>The cost of an incident is roughly the recovery time multiplied by the number of "
        "GPUs held idle. Recovery means excluding or replacing the failed GPU, restarting every "
        "process in the group and bringing its state back, so the multiplier is large.</p>"
    ),
    _code(
        "python",
        """
gpus_waiting = 71
for recovery_minutes in (45, 20, 2):
    gpu_hours = gpus_waiting * recovery_minutes / 60
    print(f"{recovery_minutes:>3} min recovery idles {gpu_hours:.1f} GPU-hours")
""",
        "idle_gpu_hours.py",
    ),
    _table(
        "Idle GPU-hours per incident (illustrative recovery times)",
        ["Recovery path", "Minutes", "Idle GPU-hours"],
        [
            ["Reschedule and reload from storage", "45", "53.3"],
            ["Reload from a local cache", "20", "23.7"],
            ["Restore from a recent checkpoint", "2", "2.4"],
        ],
    ),
    _callout(
        "warning",
        "Where published numbers stop",
        "<p>Public data on rack-scale failure rates and recovery times is still sparse, and "
        "vendor figures describe specific configurations. Treat the minutes above as "
        "placeholders and replace them with your own measurements.</p>",
    ),
    _quote("At rack scale, recovery time is multiplied by every GPU that is waiting for it."),
    _h("Shrinking the multiplier"),
    _p(
        "<p>You cannot stop the healthy GPUs from waiting, but you can make the wait shorter: "
        "keep a spare tray or rack to move to, keep checkpoints recent and close to the "
        "hardware, and restore rather than rebuild. Every minute saved is worth seventy-one "
        "GPU-minutes.</p>"
    ),
    _embed(),
    _p(
        "<p>The same arithmetic applies to smaller tensor-parallel groups, only with a smaller "
        "multiplier. An eight-GPU node that waits twenty minutes idles less than three "
        "GPU-hours; a rack that waits the same time idles more than twenty.</p>"
    ),
]

POST_BODIES["five-fleet-signals-five-policies"] = [
    _p(
        "<p>Most GPU fleets already collect the signals that come before a disruption. The gap "
        "is usually between the alert and the action: a page goes to a person, who decides "
        "whether to drain a node and loses the running work in the process. The five signals "
        "below are common; for each we sketch a policy that protects the workload first.</p>"
    ),
    _h("Signal to policy", "signals"),
    _table(
        "Five signals and a workload-preserving response",
        ["Signal", "Example source", "Policy"],
        [
            ["GPU health", "DCGM checks, Xid events", "<p>Checkpoint, migrate, then repair</p>"],
            [
                "Thermal",
                "Temperature, throttle counters",
                "<p>Move before throttling turns into a fault</p>",
            ],
            [
                "Reclaim notice",
                "Spot or preemption notice",
                "<p>Checkpoint inside the notice window</p>",
            ],
            ["Fragmentation", "Free GPUs per node", "<p>Checkpoint small jobs and repack them</p>"],
            [
                "Maintenance",
                "Driver or firmware updates",
                "<p>Checkpoint before, restore after</p>",
            ],
        ],
    ),
    _p(
        "<p>All five follow the same shape: detect, save state, act on the hardware, put the "
        "work back. What differs is how much time the signal gives you. A reclaim notice may "
        "leave seconds to a couple of minutes, a maintenance window leaves days, and a hard GPU "
        "fault may leave none at all.</p>"
    ),
    _img(
        "Detail of the blueprint: five small glyphs for health, thermal, reclaim, fragmentation "
        "and maintenance, joined by grey dashed wires to a blue ring holding a save icon, with a "
        "blue arrow to a healthy node.",
        "Every signal goes through the same step: save the workload, then act.",
    ),
    _h("Writing a policy down"),
    _p(
        "<p>Keep policies declarative so they can be reviewed like any other configuration. The "
        "format below is only a sketch of the idea.</p>"
    ),
    _code(
        "yaml",
        """
# Illustrative policy format, not a shipped schema.
policies:
  - signal: gpu_health
    when: "xid in [79, 94, 95] or dcgm.health == 'fail'"
    actions: [checkpoint, migrate, cordon]
  - signal: reclaim_notice
    when: "notice_seconds < 120"
    actions: [checkpoint, release]
""",
        "policies.yaml (sketch)",
    ),
    _callout(
        "note",
        "What ships and what is still a design",
        "<p>Some triggers are simple to wire up today, such as acting on a preemption notice. "
        "Others, like automatic repacking to undo fragmentation, depend on scheduler "
        "integration and are still closer to designs. We say which is which as we write up "
        "each one.</p>",
    ),
    _quote("An alert that only pages a human is a policy too; it is just a slow one."),
    _h("Start with one signal"),
    _p(
        "<p>Pick the signal that costs you most today, usually reclaims or GPU faults, automate "
        "it from end to end, and measure how much work it preserves before adding the next.</p>"
    ),
    _embed(),
]

POST_BODIES["gpu-failure-frequency-scales-with-fleet"] = [
    _p(
        "<p>The chance that any one GPU interrupts a job on a given day is small. But a job's "
        "interruption rate is roughly the per-GPU rate times the number of GPUs it depends on, "
        "so doubling the GPUs roughly halves the time between interruptions. Your on-call "
        "rotation does not grow with the fleet; failure frequency does.</p>"
    ),
    _h("What published studies show"),
    _p(
        "<p>Several operators have published data from large training clusters. Meta's Llama 3 "
        "paper, for example, described a few hundred unexpected interruptions during a "
        "pre-training period of roughly eight weeks on about sixteen thousand GPUs, with faulty "
        "GPUs and GPU memory among the largest causes. Studies of shared research clusters point "
        "the same way: at scale, hardware faults are routine rather than exceptional.</p>"
    ),
    _img(
        "Detail of the blueprint: a straight line falling across log axes, two solid blue "
        "points on its upper half and two hollow dashed blue points on its lower half, the last "
        "ringed in red, with a grey dashed line at the height of the second point.",
        "Solid points are measured, hollow points are projections; the red ring marks the "
        "largest fleet, where the line is an extrapolation.",
    ),
    _code(
        "python",
        """
def hours_between_interruptions(failures_per_gpu_year, gpus):
    # Assumes independent failures at a constant rate.
    failures_per_hour = failures_per_gpu_year * gpus / (365 * 24)
    return 1 / failures_per_hour

for gpus in (64, 1_024, 16_384, 100_000):
    print(gpus, f"{hours_between_interruptions(0.15, gpus):.1f} h")
""",
        "mtbi.py: the per-GPU rate is illustrative; use your own",
    ),
    _h("Measured versus projected"),
    _table(
        "Illustrative time between job interruptions at 0.15 failures per GPU-year",
        ["GPUs", "Hours between interruptions", "Status"],
        [
            ["64", "912.5", "Easy to observe"],
            ["1024", "57.0", "Measurable over weeks"],
            ["16384", "3.6", "Comparable to published large runs"],
            ["100000", "0.6", "Projection"],
        ],
    ),
    _p(
        "<p>The line is easy to draw, but its right end is an extrapolation. Failure rates vary "
        "with hardware generation, cooling, firmware, how hard the workload drives the GPUs, and "
        "how an operator counts an interruption. Treat projections as an order of magnitude, not "
        "a forecast.</p>"
    ),
    _callout(
        "tip",
        "Estimate your own rate",
        "<p>Count job interruptions caused by hardware over a quarter, divide by the GPU-years "
        "used, and keep the raw counts next to the rate. Small fleets give noisy estimates, so "
        "report a range.</p>",
    ),
    _quote("The pager rotation stays the same size while the fleet doubles."),
    _h("Planning for it"),
    _p(
        "<p>If interruptions are routine, recovery has to be routine too: automatic detection, "
        "a fast restore from recent state, and no person in the loop for the common case.</p>"
    ),
    _embed(),
    _p(
        "<p>The same reasoning applies to inference fleets. Each replica may be small, but a "
        "fleet of hundreds of multi-GPU replicas sees hardware faults every week, and each one "
        "interrupts whatever sessions that replica was holding.</p>"
    ),
]

POST_BODIES["vllm-sglang-stops-responding"] = [
    _p(
        "<p>Some of the hardest serving incidents have no crash. The vLLM or SGLang process is "
        "running, the pod reports ready, GPU utilisation may even look normal, but requests queue "
        "up and nothing comes back. The first job is to tell whether the engine has stalled or a "
        "GPU has hung.</p>"
    ),
    _h("Engine stall or hung GPU"),
    _p(
        "<p>A serving engine is a chain. An API server accepts requests, an engine loop "
        "schedules batches, and workers run kernels on the GPUs. A stall in the loop, such as a "
        "deadlock or a blocked scheduler, looks different from a GPU whose kernel never "
        "finishes. Check each link:</p>"
        "<ul><li>Is the API server still accepting and queueing?</li>"
        "<li>Is the engine loop still iterating, judging by logs and counters?</li>"
        "<li>Are GPU kernels completing, and is there an Xid in the kernel log?</li></ul>"
    ),
    _img(
        "Detail of the blueprint: requests flowing through an API server and an engine loop to "
        "eight worker squares, one pale red with a dashed outline, above a timeline of blue "
        "heartbeats that stops at a red bar.",
        "Everything upstream is still up; the heartbeats show when progress stopped.",
    ),
    _code(
        "bash",
        """
# Is the server up, and is the engine making progress?
curl -s -o /dev/null -w "%{http_code}\\n" http://localhost:8000/health
curl -s http://localhost:8000/metrics | grep -E "num_requests_(running|waiting)"

# Where are the worker processes stuck?
py-spy dump --pid "$(pgrep -f vllm | head -n 1)"
nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv
sudo dmesg --ctime | grep -i xid | tail -n 5
""",
        "Triage commands; metric names differ between engines and versions",
    ),
    _h("Why health checks miss it"),
    _p(
        "<p>Many health endpoints confirm that the server process answers HTTP. That does not "
        "prove a request can complete. A liveness probe that passes while the engine is hung "
        "keeps the replica in rotation; one that is too aggressive restarts busy but healthy "
        "replicas in the middle of long prefills.</p>"
    ),
    _table(
        "What common checks can and cannot see",
        ["Check", "Detects", "Misses"],
        [
            ["HTTP health endpoint", "<p>Server process down</p>", "<p>Stalled loop, hung GPU</p>"],
            ["Synthetic completion", "<p>End-to-end stall</p>", "<p>Which part stalled</p>"],
            [
                "Queue depth and throughput",
                "<p>No progress under load</p>",
                "<p>Stalls when idle</p>",
            ],
            ["Xid and DCGM alerts", "<p>Hardware faults</p>", "<p>Software deadlocks</p>"],
        ],
    ),
    _callout(
        "warning",
        "Checkpoint timing matters",
        "<p>A checkpoint taken after the engine hung captures the hung state, and restoring it "
        "brings the hang back. Recovery needs a checkpoint from before the last healthy "
        "heartbeat, which means checkpointing on a schedule rather than only during an "
        "incident.</p>",
    ),
    _quote("Nothing crashed is not the same as nothing is wrong."),
    _h("A recovery sequence"),
    _p(
        "<p>Confirm the stall with a synthetic request, capture stacks for the postmortem, take "
        "the replica out of rotation, then restore from the last checkpoint taken before the "
        "heartbeat stopped: on the same GPU if it checks out healthy, elsewhere if the kernel "
        "log shows an Xid.</p>"
    ),
    _embed(),
]

POST_BODIES["dcgm-flags-gpu-with-running-job"] = [
    _p(
        "<p>DCGM or the driver reports that a GPU is degraded, and a job is running on it. The "
        "usual runbook of cordon, drain and reset is built for repairing hardware. It treats the "
        "job as collateral: draining kills it, and the scheduler starts it again from whatever "
        "it last saved.</p>"
    ),
    _h("Repair and recovery are separate problems"),
    _p(
        "<p>Repairing the GPU and recovering the workload are different goals on different "
        "clocks. One runbook can serve both if the steps are reordered: save the workload first, "
        "move it to healthy hardware, then cordon and drain a node that no longer has anything "
        "to lose.</p>"
    ),
    _img(
        "Detail of the blueprint: two rows of the same steps, the top one ending with a job "
        "struck out in red as its node drains, the bottom one saving the job first and moving it "
        "in blue to a healthy node before the cordon and drain.",
        "Same steps, different order: only the second row keeps the job.",
    ),
    _code(
        "bash",
        """
# 1. What did DCGM and the driver report?
dcgmi health -g 0 -c
sudo dmesg --ctime | grep -i "NVRM: Xid"

# 2. Save the workload and move it (your checkpoint tooling goes here).

# 3. Then take the node out of service.
kubectl cordon gpu-node-17
kubectl drain gpu-node-17 --ignore-daemonsets --delete-emptydir-data
""",
        "The order matters more than the exact commands",
    ),
    _h("Which checkpoint to restore"),
    _p(
        "<p>Not every checkpoint is a good one. If the GPU was producing errors for a while "
        "before anyone acted, the newest checkpoint may already hold bad state, for example "
        "after an uncontained memory error. Use the alert type and its timestamp to choose.</p>"
    ),
    _table(
        "Choosing a restore point by alert (guidance, not a rule)",
        ["Alert", "Meaning, simplified", "Restore from"],
        [
            ["Xid 79", "GPU has fallen off the bus", "<p>Latest checkpoint before the event</p>"],
            ["Xid 94", "Contained ECC error", "<p>Latest checkpoint</p>"],
            [
                "Xid 95",
                "Uncontained ECC error",
                "<p>A checkpoint from <b>before</b> the first error</p>",
            ],
            [
                "Thermal or power warning",
                "Degrading but running",
                "<p>A fresh checkpoint taken now</p>",
            ],
        ],
    ),
    _callout(
        "note",
        "Draining is still required",
        "<p>Checkpointing first does not skip the repair. The node still has to be cordoned, "
        "drained and reset or replaced; it simply has no running job when that happens.</p>",
    ),
    _quote("Drain the node, not the job."),
    _h("Put it in the runbook"),
    _p(
        "<p>Write the reordered sequence into the runbook, and automate the first two steps so "
        "that an alert at three in the morning does not depend on someone remembering them.</p>"
    ),
    _embed(),
    _p(
        "<p>The reordered runbook takes a few minutes longer before the node is out of service. "
        "In exchange, the job keeps its progress, the repair can proceed without anyone "
        "watching the clock, and the postmortem has one less lost run to explain.</p>"
    ),
]

POST_BODIES["is-it-worth-acting-on-gpu-failure-prediction"] = [
    _p(
        "<p>GPU failure prediction keeps improving, from thresholds on ECC counters to models "
        "trained on fleet telemetry. A prediction is only useful if acting on it pays off, and "
        "that depends on three numbers: how often the prediction is right, how much warning it "
        "gives, and what acting costs.</p>"
    ),
    _h("Precision decides the bill"),
    _p(
        "<p>If a predictor flags 100 GPUs and 84 of them really were about to fail, its "
        "precision is 84%. Each of the 16 wrong calls still triggers the action. When the action "
        "is to drain the node and requeue the job, every false alarm costs the lost work plus "
        "the wait to be scheduled again.</p>"
    ),
    _code(
        "python",
        """
def net_gpu_hours_saved(flags, precision, saved_per_hit, lost_per_false_alarm):
    hits = flags * precision
    false_alarms = flags - hits
    return hits * saved_per_hit - false_alarms * lost_per_false_alarm

# Illustrative: a hit saves 10 GPU-hours; a false alarm costs 6 (drain) or 0.2 (restore).
for precision in (0.84, 0.3):
    for action, lost in (("drain", 6.0), ("restore", 0.2)):
        net = net_gpu_hours_saved(100, precision, 10.0, lost)
        print(f"precision {precision:.0%}, {action}: {net:+.0f} GPU-hours")
""",
        "prediction_value.py",
    ),
    _img(
        "Detail of the blueprint: a ten by ten grid of dots with sixteen red among eighty-four "
        "grey, beside a long grey bar ending in a red cross and a short blue bar under a save "
        "icon.",
        "Sixteen wrong calls in a hundred: expensive when acting means a drain, cheap when it "
        "means a restore.",
    ),
    _h("Warning time"),
    _p(
        "<p>A prediction that arrives thirty seconds before the fault is no help if saving and "
        "moving the job takes five minutes. Warning time has to exceed the time it takes to act. "
        "Cheap, fast checkpoint and restore shortens the time to act, which makes short-warning "
        "predictions usable at all.</p>"
    ),
    _table(
        "When acting on a prediction pays (illustrative)",
        [
            "Action",
            "Cost per false alarm (GPU-hours)",
            "Worth it at low precision?",
        ],
        [
            ["Drain and requeue", "6.0", "<p>Rarely</p>"],
            ["Checkpoint, migrate, restore", "0.2", "<p>Often</p>"],
            ["Checkpoint only, stay put", "0.05", "<p>Almost always</p>"],
        ],
    ),
    _callout(
        "warning",
        "Some failures give no warning",
        "<p>Sudden faults, such as a GPU falling off the bus, may leave nothing in telemetry "
        "beforehand. Prediction complements regular checkpoints; it does not replace them.</p>",
    ),
    _quote(
        "A cheap action makes a mediocre predictor useful; an expensive one makes a good "
        "predictor hard to trust."
    ),
    _h("How to evaluate a predictor"),
    _p(
        "<p>Replay a period of your own telemetry, record precision and the spread of warning "
        "times, and price each outcome with what your action really costs. The answer is often "
        "different for training jobs and for serving replicas.</p>"
    ),
    _embed(),
    _p(
        "<p>The result is rarely a yes or no. A predictor that is not worth a drain may well be "
        "worth a checkpoint, and a predictor that is worth a checkpoint today becomes worth a "
        "migration once restores are fast enough to hide inside its warning time.</p>"
    ),
]

POST_BODIES["training-job-when-a-gpu-fails"] = [
    _p(
        "<p>When a GPU fails in the middle of a training step, the job rarely degrades "
        "gracefully. The driver logs an Xid error, the CUDA context on that GPU becomes "
        "unusable, and the process that owned it usually exits or hangs. Its peers wait in their "
        "next collective until a timeout fires.</p>"
    ),
    _h("What the failure looks like"),
    _p(
        "<p>The first sign is usually in the kernel log rather than in the training output. "
        "Some Xid errors only need the process restarted; others need a GPU reset or a reboot. "
        "Either way, the process and everything in its GPU memory are gone.</p>"
    ),
    _code(
        "text",
        """
$ sudo dmesg --ctime | grep -i xid
[...] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', GPU has fallen off the bus.

$ nvidia-smi
Unable to determine the device handle for GPU 0000:3B:00.0: Unknown Error
""",
        "Illustrative output; formats vary between driver versions",
    ),
    _img(
        "Detail of the blueprint: eight GPU cards hanging from a bus, one stem broken into red "
        "dashes and its card fallen below, tilted and struck out, with a blue dashed arrow from a "
        "save icon to a replacement card on a second bus.",
        "The lost card cannot be saved after the fact; the replacement starts from the checkpoint.",
    ),
    _h("What state is lost"),
    _table(
        "Training state at the moment of failure",
        ["State", "Where it lives", "After the failure"],
        [
            ["Parameters", "GPU memory", "<p>Lost unless checkpointed</p>"],
            ["Optimizer state", "GPU or host memory", "<p>Lost unless checkpointed</p>"],
            ["Data loader position", "Host process", "<p>Lost; may repeat or skip data</p>"],
            ["Random number state", "Host and GPU", "<p>Lost; the run diverges</p>"],
            ["Compiled kernels", "Process memory, disk cache", "<p>Rebuilt on restart</p>"],
        ],
    ),
    _p(
        "<p>Framework checkpoints usually save parameters and optimizer state every few hundred "
        "or thousand steps. Everything since the last one is computed again after the "
        "restart, on every GPU in the job.</p>"
    ),
    _callout(
        "note",
        "The checkpoint has to exist before the failure",
        "<p>No tool can recover state from a GPU that has fallen off the bus. Recovery always "
        "starts from the last saved state, so the checkpoint interval sets the upper bound on "
        "lost work.</p>",
    ),
    _quote("The interval between checkpoints is the amount of work you have agreed to lose."),
    _h("Shortening the path back"),
    _p(
        "<p>Restart on replacement hardware from the latest checkpoint. The cheaper a checkpoint "
        "is to take, the more often you can afford one. Process-level checkpoints also capture "
        "data loader and random state that framework checkpoints often leave out.</p>"
    ),
    _embed(),
    _p(
        "<p>It is worth checking what your current checkpoints really contain. Restoring one in "
        "a test job, then comparing the loss curve with the original run, is a quick way to find "
        "state that was never saved.</p>"
    ),
]

POST_BODIES["one-node-failed-whole-training-job-died"] = [
    _p(
        "<p>Distributed training is a group activity. Every rank takes part in collective "
        "operations such as all-reduce, and a collective completes only when every member has "
        "contributed. When one node fails, its ranks stop contributing, and every other rank "
        "blocks.</p>"
    ),
    _h("How the timeout unfolds"),
    _p(
        "<p>The surviving ranks sit inside an NCCL call waiting for data that will never arrive. "
        "Nothing fails straight away. When the process group's timeout expires (ten minutes by "
        "default in recent PyTorch releases, though it has changed over time), a watchdog "
        "aborts the communicator and the processes exit with a timeout error. The launcher sees "
        "failed workers and tears down the whole job.</p>"
    ),
    _code(
        "python",
        """
from datetime import timedelta

import torch.distributed as dist

# A shorter timeout surfaces a dead peer sooner, at the risk of false
# timeouts during slow steps such as writing a large checkpoint.
dist.init_process_group(backend="nccl", timeout=timedelta(minutes=5))
""",
        "Setting the collective timeout explicitly",
    ),
    _img(
        "Detail of the blueprint: sixteen GPUs in a ring joined by a dashed line, one filled red "
        "and struck out, the all-reduce hub at the centre crossed out, and a blue ring around the "
        "whole group.",
        "One rank down, and the collective at the centre cannot complete for anyone.",
    ),
    _h("Reading the error"),
    _table(
        "Messages you may see, and what they usually mean",
        ["Symptom", "Usual meaning"],
        [
            ["Watchdog caught collective operation timeout", "<p>A peer stopped taking part</p>"],
            [
                "NCCL remote process exited or network error",
                "<p>A node or its network went away</p>",
            ],
            ["Xid error in dmesg on one node", "<p>A GPU fault started it</p>"],
            [
                "ChildFailedError from torchrun",
                "<p>The launcher reporting exits, not the cause</p>",
            ],
        ],
    ),
    _p(
        "<p>The first error in time is the cause; the rest are consequences. Collect logs from "
        "every node and sort them by timestamp before drawing conclusions.</p>"
    ),
    _callout(
        "tip",
        "Find the first failure",
        "<p>Make sure every rank logs its rank, hostname and a timestamp from a synchronised "
        "clock. The earliest error across ranks usually points at the node to replace.</p>",
    ),
    _quote("In a collective, the slowest rank sets the pace and a dead rank sets the deadline."),
    _h("What a restart recovers"),
    _p(
        "<p>A restart can only resume from saved state. If the checkpoint includes the model, "
        "optimizer, learning-rate schedule, data loader position and random state, the job "
        "continues as if it had paused. If it holds only model weights, training continues, but "
        "not along the same path.</p>"
    ),
    _embed(),
    _p(
        "<p>Elastic launchers can shrink or regroup a job around the missing node, but they still "
        "need that saved state to continue from. The failed rank's share of the model and "
        "optimizer has to come from somewhere, and a checkpoint is usually the only place it "
        "exists.</p>"
    ),
]

POST_BODIES["torchrun-torchft-ray-train-restart"] = [
    _p(
        "<p>The popular training launchers all promise fault tolerance, but they mean different "
        "things by it. The practical question is: after a node dies, where does the job restart "
        "from, and what do you have to change in your code to make that work?</p>"
    ),
    _h("Four approaches", "approaches"),
    _table(
        "Where each restarts from after a node failure (simplified)",
        ["Framework", "Restarts from", "You provide"],
        [
            [
                "torchrun (elastic)",
                "<p>The start of your script, all workers restarted</p>",
                "<p>Code that loads the latest checkpoint</p>",
            ],
            [
                "torchft",
                "<p>Healthy replica groups continue; the failed one rejoins from a peer</p>",
                "<p>Changes to use its managed process groups</p>",
            ],
            [
                "Ray Train",
                "<p>The latest checkpoint reported to Ray</p>",
                "<p><code>report</code> calls and a failure config</p>",
            ],
            [
                "Kubeflow Training Operator",
                "<p>Restarted pods, script from the start</p>",
                "<p>Checkpoint loading, as with torchrun</p>",
            ],
        ],
    ),
    _p(
        "<p>In every case except torchft's live recovery, the job goes back to the last "
        "checkpoint on storage. Work done since then is repeated, and the checkpoint interval is "
        "a trade between the overhead of saving and the work you lose.</p>"
    ),
    _img(
        "Detail of the blueprint: a progress track filled blue up to a red cut, grey dashed arcs "
        "looping back to the start and to a grey document, another grey arc climbing to a lane "
        "that carries on, and a short blue arc back to the last heartbeat before the cut.",
        "Each arc is a restart point: the start, the last saved checkpoint, the surviving "
        "replicas, or the last process checkpoint.",
    ),
    _code(
        "python",
        """
import ray.train
from ray.train import FailureConfig, RunConfig

def train_loop(config):
    start_epoch = 0
    if (ckpt := ray.train.get_checkpoint()) is not None:
        start_epoch = load_state(ckpt) + 1          # your code
    for epoch in range(start_epoch, config["epochs"]):
        train_one_epoch()                           # your code
        ray.train.report({"epoch": epoch}, checkpoint=save_state(epoch))

run_config = RunConfig(failure_config=FailureConfig(max_failures=3))
""",
        "Ray Train resumes from the last reported checkpoint",
    ),
    _h("What changes in your code"),
    _p(
        "<p>torchrun and Kubeflow need resume logic in the script. Ray Train needs checkpoints "
        "reported through its API. torchft asks for deeper changes in exchange for not stopping "
        "the healthy replicas. None of them captures state you did not save yourself, such as "
        "data loader iterators, random state or in-flight asynchronous work.</p>"
    ),
    _callout(
        "note",
        "Versions move quickly",
        "<p>These projects change fast. Check the documentation for the version you run; "
        "defaults such as restart counts and checkpoint APIs have changed between releases.</p>",
    ),
    _quote("Every framework restarts from somewhere. The question is how far back."),
    _h("Where process checkpoints fit"),
    _p(
        "<p>A process-level checkpoint sits underneath any of these. It captures the whole "
        "training process, GPU memory included, on a schedule independent of the framework's "
        "own saves, so a restore returns to the last heartbeat before the failure rather than "
        "to the last time the code chose to save.</p>"
    ),
    _embed(),
]


def _with_ids(key: str, blocks: list[Block], image_id: int | None) -> list[dict[str, Any]]:
    """Raw stream data with stable block ids; the image block is dropped without an image."""
    out: list[dict[str, Any]] = []
    for n, (kind, value) in enumerate(blocks):
        if kind == "image":
            if image_id is None:
                continue
            value = {**value, "image": image_id}
        block_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"cedana-demo/{key}/{n}"))
        out.append({"type": kind, "value": value, "id": block_id})
    return out


def body_for(
    slug: str, title: str, summary: str, image_id: int | None = None
) -> list[dict[str, Any]]:
    """The body of a reference post as raw StreamField data for `BodyBlock`.

    `image_id` is the primary key of the image the body figure shows (the post's hero image);
    without one the figure is left out. A slug that is not a reference post gets a generated
    body that opens with its summary."""
    if slug in POST_BODIES:
        return _with_ids(slug, POST_BODIES[slug], image_id)
    body = generated_body(zlib.crc32(slug.encode("utf-8")), image_id)
    intro = {
        "type": "paragraph",
        "value": f"<p>{_escape(summary or title)}</p>",
        "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"cedana-demo/{slug}/intro")),
    }
    return [intro, *body]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# ----------------------------------------------------------------------------------------------
# Generated bodies for synthetic benchmark posts

COMPONENTS = [
    "GPU node",
    "inference replica",
    "training job",
    "scheduler",
    "checkpoint store",
    "serving engine",
    "NCCL communicator",
    "data loader",
    "KV cache",
    "process group",
    "Kubernetes operator",
    "node pool",
    "object store",
    "restore path",
    "health probe",
    "control plane",
    "placement service",
    "job queue",
    "model server",
    "warm pool",
    "rack",
    "tensor-parallel group",
    "spot fleet",
    "batch queue",
    "telemetry pipeline",
]
FAILURES = [
    "an Xid 79 fault",
    "an uncorrectable ECC error",
    "a thermal throttle",
    "a spot reclaim",
    "a driver reset",
    "a NIC flap",
    "a hung collective",
    "a kernel panic",
    "a power event",
    "an out-of-memory kill",
    "a firmware update",
    "a stalled engine loop",
    "a bad switch port",
    "a failed health check",
    "a drained node",
    "a preemption notice",
]
METRICS = [
    "restore time",
    "time to first token",
    "p99 latency",
    "GPU-hours lost",
    "checkpoint size",
    "checkpoint overhead",
    "recovery time",
    "error budget",
    "goodput",
    "tokens per second",
    "queue depth",
    "mean time between interruptions",
    "warm-up time",
    "requeue delay",
    "cost per token",
    "utilisation",
]
ACTIONS = [
    "checkpoint",
    "migrate",
    "restore",
    "cordon",
    "drain",
    "requeue",
    "reschedule",
    "snapshot",
    "replay",
    "throttle",
    "rebalance",
    "repack",
    "retry",
    "resume",
    "evict",
]
ADJECTIVES = [
    "steady",
    "noisy",
    "brittle",
    "predictable",
    "expensive",
    "cheap",
    "slow",
    "fast",
    "surprising",
    "boring",
    "partial",
    "silent",
    "frequent",
    "rare",
    "tolerable",
    "costly",
    "invisible",
    "measurable",
    "bursty",
    "gradual",
]
ADVERBS = [
    "usually",
    "often",
    "rarely",
    "quietly",
    "reliably",
    "occasionally",
    "mostly",
    "consistently",
    "eventually",
    "immediately",
]
PLACES = [
    "the staging cluster",
    "a single rack",
    "the east region",
    "a shared research cluster",
    "the inference fleet",
    "a spot pool",
    "the training partition",
    "a test bench",
    "an eight-GPU node",
    "the burst capacity pool",
]
TEAMS = [
    "the platform team",
    "on-call",
    "the serving team",
    "the research group",
    "the infrastructure crew",
    "the capacity planners",
    "the reliability group",
]
FRAMEWORKS = ["PyTorch", "vLLM", "SGLang", "Ray", "Kubernetes", "Slurm", "torchrun", "DeepSpeed"]
UNITS = ["seconds", "minutes", "GPU-hours", "percent", "gigabytes", "steps"]
RARE = [
    "quiescence",
    "idempotency",
    "hysteresis",
    "backpressure",
    "straggler",
    "livelock",
    "brownout",
    "thundering-herd",
    "tombstone",
    "fencing",
    "bisection",
    "coalescing",
    "debouncing",
    "reentrancy",
    "heterogeneity",
    "amortisation",
    "jitter",
    "watermark",
    "linearisability",
    "sharding",
    "canary",
    "quorum",
    "stragglers",
    "tail-latency",
    "checkpointability",
    "preemptibility",
    "serialisation",
    "rehydration",
]
TOPIC_WORDS = [
    "failover",
    "durability",
    "availability",
    "capacity",
    "observability",
    "placement",
    "scheduling",
    "elasticity",
    "reliability",
    "throughput",
    "isolation",
    "recovery",
]

SENTENCES = [
    "When {failure} hits {place}, the {component} {adverb} needs {num} {unit} to come back.",
    "We {adverb} {action} the {component} before touching the hardware.",
    "The {metric} on {place} looked {adjective} until {failure} arrived.",
    "{team_cap} tracks {metric} for every {component} in {place}.",
    "A {adjective} {component} makes {metric} hard to reason about.",
    "With {framework}, the {component} {adverb} recovers from {failure} without a person.",
    "Our runbook says: {action}, then {action2}, then check the {metric}.",
    "After {failure}, {team} compared {metric} across {num} runs.",
    "The cheapest fix was to {action} the {component} every {num} {unit}.",
    "Nobody expected {failure} to change the {metric} by {num} {unit}.",
    "{framework} exposes enough detail to {action} a {component} safely.",
    "For {place}, {metric} matters more than raw {metric2}.",
    "The {component} stayed {adjective}, but the {component2} did not.",
    "Each {action} costs about {num} {unit} of {metric}.",
    "We measured {metric} before and after we started to {action} on {failure}.",
    "In {place}, {failure} is {adjective} enough that {team} plans around it.",
]

HEADINGS = [
    "Notes on {metric}",
    "What we changed in {place}",
    "Why the {component} matters",
    "{action_cap} first, repair later",
    "Measuring {metric}",
    "A {adjective} week for {topic}",
    "When {failure} arrives",
    "{topic_cap} in practice",
]


def _fill(template: str, rng: random.Random) -> str:
    action, action2 = rng.sample(ACTIONS, 2)
    component, component2 = rng.sample(COMPONENTS, 2)
    metric, metric2 = rng.sample(METRICS, 2)
    team = rng.choice(TEAMS)
    topic = rng.choice(TOPIC_WORDS)
    return template.format(
        failure=rng.choice(FAILURES),
        place=rng.choice(PLACES),
        component=component,
        component2=component2,
        adverb=rng.choice(ADVERBS),
        num=rng.choice((2, 3, 4, 5, 8, 10, 12, 16, 20, 30, 45, 64, 90, 120)),
        unit=rng.choice(UNITS),
        action=action,
        action2=action2,
        action_cap=action.capitalize(),
        metric=metric,
        metric2=metric2,
        adjective=rng.choice(ADJECTIVES),
        team=team,
        team_cap=team[0].upper() + team[1:],
        framework=rng.choice(FRAMEWORKS),
        topic=topic,
        topic_cap=topic.capitalize(),
    )


def _sentence(rng: random.Random) -> str:
    text = _fill(rng.choice(SENTENCES), rng)
    if rng.random() < 0.03:
        text = text[:-1] + f", a lesson in {rng.choice(RARE)}."
    return text


def generated_body(seed: int, image_id: int | None = None) -> list[dict[str, Any]]:
    """A short (about 150-300 words) body for a synthetic post, the same for the same seed."""
    rng = random.Random(seed)  # noqa: S311 - deterministic filler text, not security
    target = rng.randint(150, 230)
    sentences: list[str] = []
    words = 0
    while words < target:
        sentences.append(_sentence(rng))
        words += len(sentences[-1].split())
    paragraphs: list[str] = []
    while sentences:
        take = rng.randint(3, 5)
        paragraphs.append(" ".join(sentences[:take]))
        sentences = sentences[take:]
    blocks: list[Block] = [_p(f"<p>{paragraphs[0]}</p>")]
    blocks.append(_h(_fill(rng.choice(HEADINGS), rng)))
    if image_id is not None and rng.random() < 0.7:
        blocks.append(
            _img(
                "Blueprint drawing of GPU hardware and saved-state icons on a blue grid.",
                _sentence(rng),
            )
        )
    for text in paragraphs[1:]:
        blocks.append(_p(f"<p>{text}</p>"))
        extra = rng.random()
        if extra < 0.15:
            blocks.append(_quote(_sentence(rng), rng.choice(TEAMS).capitalize()))
        elif extra < 0.3:
            blocks.append(
                _callout(rng.choice(("note", "tip", "warning")), "", f"<p>{_sentence(rng)}</p>")
            )
        elif extra < 0.4:
            action = rng.choice(ACTIONS)
            blocks.append(
                _code(
                    "bash",
                    f"kubectl {rng.choice(('cordon', 'drain', 'describe node'))} "
                    f"gpu-node-{rng.randrange(100):02d}\n# then {action}",
                    "",
                )
            )
    if rng.random() < 0.25:
        rows = [
            [rng.choice(METRICS).capitalize(), str(rng.randrange(1, 500))]
            for _ in range(rng.randint(2, 4))
        ]
        blocks.append(_table("", ["Measure", "Value"], rows))
    return _with_ids(f"generated/{seed}", blocks, image_id)
