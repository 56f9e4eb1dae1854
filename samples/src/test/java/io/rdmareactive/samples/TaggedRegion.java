package io.rdmareactive.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The text a tag marks in a source file, as a page quotes it. A tag marks one or more regions: the lines between a
 * line holding {@code tag::name[]} and the next holding {@code end::name[]} (in a comment of the file's language:
 * {@code // tag::name[]}, {@code # tag::name[]}, {@code <!-- tag::name[] -->}). Each region loses its common
 * indentation, lines holding any tag's markers are left out (so regions of different tags may overlap, as several
 * snippets share import lines), and the regions are joined, in order, by one empty line, except that import lines
 * run on from one region to the next: a snippet's imports are regions at the top of the file, as many as it needs of
 * the file's sorted imports, and its code is another further down.
 */
final class TaggedRegion {

    private static final Pattern ANY_MARKER = Pattern.compile("(tag|end)::[\\w-]+\\[]");

    private TaggedRegion() {
    }

    /**
     * @param file the source file
     * @param tag  the tag
     * @return the tag's regions, dedented and joined, each line ending with a newline
     * @throws IOException    if the file cannot be read
     * @throws AssertionError if the file has no such tag, or a region is not closed
     */
    static String text(final Path file, final String tag) throws IOException {
        final List<String> lines = Files.readAllLines(file);
        final String open = "tag::" + tag + "[]";
        final String close = "end::" + tag + "[]";
        final List<String> regions = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).contains(open)) {
                continue;
            }
            final List<String> body = new ArrayList<>();
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).contains(close)) {
                if (!ANY_MARKER.matcher(lines.get(end)).find()) {
                    body.add(lines.get(end));
                }
                end++;
            }
            if (end == lines.size()) {
                throw new AssertionError(file + ":" + (i + 1) + ": " + open + " is never closed by " + close);
            }
            regions.add(dedented(body));
            i = end;
        }
        if (regions.isEmpty()) {
            throw new AssertionError(file + " has no " + open);
        }
        final StringBuilder text = new StringBuilder(regions.get(0));
        for (int r = 1; r < regions.size(); r++) {
            final boolean importsRunOn = lastLine(regions.get(r - 1)).startsWith("import ")
                && regions.get(r).startsWith("import ");
            text.append(importsRunOn ? "" : "\n").append(regions.get(r));
        }
        return text.toString();
    }

    private static String lastLine(final String region) {
        final String trimmed = region.stripTrailing();
        return trimmed.substring(trimmed.lastIndexOf('\n') + 1);
    }

    private static String dedented(final List<String> body) {
        final int indent = body.stream().filter(line -> !line.isBlank())
            .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        final StringBuilder text = new StringBuilder();
        for (final String line : body) {
            text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return text.toString();
    }
}
