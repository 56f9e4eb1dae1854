package io.rdmareactive.testsupport;

import java.io.PrintStream;

/** Where a child's lines are shown as they come, and the prefix that tells them from this JVM's own. */
record OutputEcho(String prefix, PrintStream out) {

    void show(final String line) {
        out.println(prefix + line);
    }
}
