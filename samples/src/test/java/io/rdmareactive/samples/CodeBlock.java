package io.rdmareactive.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fenced code block of a Markdown page: where it is, its language (the fence's info string, empty if none), the
 * snippet marker on the line right before it ({@code <!-- snippet: path#tag -->}, or none) and its text.
 *
 * @param page     the page, relative to the repository root
 * @param line     the fence's line, from 1
 * @param language the info string, e.g. {@code java}, {@code text}; empty when the fence has none
 * @param source   the marker's file, relative to the repository root; null without a marker
 * @param tag      the marker's tag; null without a marker
 * @param text     the lines between the fences, less the fence's indentation, each ending with a newline
 */
record CodeBlock(Path page, int line, String language, String source, String tag, String text) {

    private static final Pattern FENCE = Pattern.compile("^(\\s*)```\\s*(\\S*)\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!-- snippet: ([^#\\s]+)#([\\w-]+) -->\\s*$");
    private static final Pattern ANY_MARKER = Pattern.compile("^\\s*<!--\\s*snippet");

    /** @return whether a snippet marker precedes the block */
    boolean quoted() {
        return source != null;
    }

    /** @return where the block is, as {@code page:line} */
    String where() {
        return page + ":" + line;
    }

    /**
     * Reads every fenced code block of a page. A marker line that is malformed, or that no fence follows, is an
     * error here: a typo must not turn a checked block into an unchecked one.
     *
     * @param root the repository root
     * @param page the page, relative to the root
     * @return the page's blocks, in order
     * @throws IOException if the page cannot be read
     */
    static List<CodeBlock> of(final Path root, final Path page) throws IOException {
        final List<String> lines = Files.readAllLines(root.resolve(page));
        final List<CodeBlock> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i);
            if (ANY_MARKER.matcher(line).find()) {
                final boolean wellFormed = MARKER.matcher(line).matches();
                final boolean fenceFollows = i + 1 < lines.size() && FENCE.matcher(lines.get(i + 1)).matches();
                if (!wellFormed || !fenceFollows) {
                    throw new AssertionError(page + ":" + (i + 1) + ": a snippet marker must read"
                        + " <!-- snippet: path/from/the/root#tag --> and stand on the line right before a code"
                        + " block's opening fence, not: " + line);
                }
            }
            final Matcher fence = FENCE.matcher(line);
            if (!fence.matches()) {
                continue;
            }
            final String indent = fence.group(1);
            final int close = closingFence(lines, i, page);
            final StringBuilder text = new StringBuilder();
            for (final String body : lines.subList(i + 1, close)) {
                text.append(body.startsWith(indent) ? body.substring(indent.length()) : body.strip()).append('\n');
            }
            final Matcher marker = i > 0 ? MARKER.matcher(lines.get(i - 1)) : null;
            final boolean quoted = marker != null && marker.matches();
            blocks.add(new CodeBlock(page, i + 1, fence.group(2), quoted ? marker.group(1) : null,
                quoted ? marker.group(2) : null, text.toString()));
            i = close;
        }
        return blocks;
    }

    private static int closingFence(final List<String> lines, final int open, final Path page) {
        for (int i = open + 1; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("```")) {
                return i;
            }
        }
        throw new AssertionError(page + ":" + (open + 1) + ": a code block that is never closed");
    }
}
