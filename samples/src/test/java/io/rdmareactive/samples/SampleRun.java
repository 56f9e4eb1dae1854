package io.rdmareactive.samples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** What a sample printed, and a private shared-memory directory for it (short, under /tmp, for socket paths). */
public final class SampleRun implements AutoCloseable {

    final Path directory;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    SampleRun() {
        try {
            directory = Files.createTempDirectory(Path.of("/tmp"), "rrs");
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
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
    public void close() throws IOException {
        io.rdmareactive.samples.SampleRun.deleteDirectory(directory);
    }

    /**
     * Deletes a shared-memory directory and what it holds. The library may still be removing files of its own (a loop
     * closing a connection): the walk starts again if one vanishes under it.
     */
    public static void deleteDirectory(final Path directory) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                return;
            } catch (final java.io.UncheckedIOException ex) {
                if (attempt == 5 || !(ex.getCause() instanceof java.nio.file.NoSuchFileException)) {
                    throw ex;
                }
            }
        }
    }
}
