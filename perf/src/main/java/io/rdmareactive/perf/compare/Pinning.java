package io.rdmareactive.perf.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * CPU pinning, where the machine allows it: {@code taskset -a -p -c LIST PID} restricts every thread of this JVM
 * (and, by inheritance, every thread it starts later) to the listed CPUs. There is no per-thread pinning: Agrona has
 * no affinity API and the suite takes no native affinity library.
 */
final class Pinning {

    private Pinning() {
    }

    /** @return what the run's pinning is, as the report states it */
    static String apply(final String cpus) throws IOException, InterruptedException {
        if (cpus == null || cpus.isBlank()) {
            return "none (the JVM may run on CPUs " + io.rdmareactive.RdmaEnvironment.describe().get("cpusAllowed") + ")";
        }
        final Process taskset;
        try {
            taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus,
                String.valueOf(ProcessHandle.current().pid())).redirectErrorStream(true).start();
        } catch (final IOException ex) {
            throw new IllegalStateException("--cpus needs taskset (util-linux), which cannot run here: "
                + ex.getMessage(), ex);
        }
        final String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!taskset.waitFor(10, TimeUnit.SECONDS) || taskset.exitValue() != 0) {
            throw new IllegalStateException("taskset could not pin this JVM to CPUs " + cpus + ": " + output);
        }
        return "whole JVM pinned with taskset -a -p -c " + cpus + " (now allowed: "
            + io.rdmareactive.RdmaEnvironment.describe().get("cpusAllowed") + "); no per-thread pinning";
    }
}
