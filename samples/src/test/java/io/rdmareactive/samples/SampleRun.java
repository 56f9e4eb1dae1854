package io.rdmareactive.samples;

import io.rdmareactive.testsupport.ShmTestDirectories;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What a sample printed, and a private shared-memory directory for it (short, under /tmp, for socket paths). */
public final class SampleRun implements AutoCloseable {

    final Path directory;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    SampleRun() {
        directory = ShmTestDirectories.create();
    }

    /** @return what was printed so far, line by line */
    List<String> lines() {
        return output().lines().toList();
    }

    String output() {
        synchronized (out) {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** @return the files the provider left in the directory */
    List<Path> leftovers() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close() {
        ShmTestDirectories.delete(directory);
    }
}
