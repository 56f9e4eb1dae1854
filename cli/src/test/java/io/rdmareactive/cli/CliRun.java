package io.rdmareactive.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** One run of the command line in this JVM: its exit status and what it printed to each stream. */
record CliRun(int status, String out, String err) {

    static CliRun of(final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status;
        try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = RdmaReactiveCli.commandLine(outStream, errStream).execute(args);
        }
        return new CliRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    List<String> lines() {
        return out.lines().toList();
    }

    @Override
    public String toString() {
        return "exit status " + status + "\n--- out\n" + out + "--- err\n" + err;
    }
}
