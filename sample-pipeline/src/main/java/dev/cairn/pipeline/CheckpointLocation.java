package dev.cairn.pipeline;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The storage base of the pipeline's checkpoints, as the job spec names it ({@code storageBaseLocation}): an
 * {@code s3://bucket/prefix} location or a {@code file:} URI of a directory. Checkpoint N of job J goes under
 * {@code <base>/J/chk-N}.
 *
 * <p>In: a user's text ({@link #parse}) or a directory ({@link #of(Path)}). Out: the location, checked, without a
 * trailing slash. A malformed text is an {@link IllegalArgumentException} that says what is wrong and what a good
 * value looks like.
 *
 * @param uri the base, e.g. {@code s3://cairn/checkpoints} or {@code file:///var/lib/cairn/checkpoints}
 */
public record CheckpointLocation(String uri) {

    /** What a base may look like, for messages. */
    static final String EXPECTED = "an s3://bucket/prefix location or a file: URI of a directory, like "
            + "s3://cairn/checkpoints or file:///var/lib/cairn/checkpoints";
    /** A bucket name as S3 takes it: 3-63 lower-case letters, digits, '.' and '-'. */
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    public CheckpointLocation {
        Objects.requireNonNull(uri, "uri");
    }

    /** The {@code file:} URI of {@code directory}, made absolute. */
    public static CheckpointLocation of(Path directory) {
        String uri = directory.toAbsolutePath().normalize().toUri().toString();
        return new CheckpointLocation(uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri);
    }

    /**
     * The base {@code text} names.
     *
     * @throws IllegalArgumentException when it is not an {@code s3://bucket[/prefix]} location with a valid bucket
     *     name, nor an absolute {@code file:} URI; the message says which and shows a good value
     */
    public static CheckpointLocation parse(String text) {
        Objects.requireNonNull(text, "text");
        String trimmed = text.strip();
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("\"" + text + "\" is not a URI (" + e.getReason() + "): give "
                    + EXPECTED);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "s3" -> s3(text, uri);
            case "file" -> file(text, uri);
            case "" -> throw new IllegalArgumentException("\"" + text + "\" has no scheme: give " + EXPECTED
                    + " (a plain path goes to checkpoint.dir)");
            default -> throw new IllegalArgumentException("\"" + text + "\" has the scheme " + scheme + ", which the "
                    + "worker kit does not store snapshots at: give " + EXPECTED);
        };
    }

    /** Whether the base is in S3 ({@code s3://}). */
    public boolean isS3() {
        return uri.regionMatches(true, 0, "s3://", 0, 5);
    }

    /** The directory of a {@code file:} base. */
    public Path directory() {
        if (isS3()) {
            throw new IllegalStateException(uri + " is not a directory");
        }
        return Path.of(URI.create(uri));
    }

    /** The location of {@code name} under this base: {@code <base>/<name>}. */
    public String resolve(String name) {
        return uri + "/" + name;
    }

    @Override
    public String toString() {
        return uri;
    }

    private static CheckpointLocation s3(String text, URI uri) {
        String bucket = uri.getRawAuthority();
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("\"" + text + "\" names no bucket: give " + EXPECTED);
        }
        if (!BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException("\"" + text + "\" names the bucket \"" + bucket + "\", which is no "
                    + "bucket name (3 to 63 lower-case letters, digits, '.' and '-'): give " + EXPECTED);
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("\"" + text + "\" has a query or a fragment: give " + EXPECTED);
        }
        String prefix = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        if (prefix.contains("//")) {
            throw new IllegalArgumentException("\"" + text + "\" has an empty segment in its prefix: give " + EXPECTED);
        }
        return new CheckpointLocation("s3://" + bucket + prefix);
    }

    private static CheckpointLocation file(String text, URI uri) {
        if (uri.isOpaque() || uri.getPath() == null || !uri.getPath().startsWith("/")) {
            throw new IllegalArgumentException("\"" + text + "\" is not an absolute file: URI: give " + EXPECTED);
        }
        if (uri.getAuthority() != null && !uri.getAuthority().isEmpty()
                && !uri.getAuthority().equalsIgnoreCase("localhost")) {
            throw new IllegalArgumentException("\"" + text + "\" names the host " + uri.getAuthority() + ": a file: "
                    + "base is on the worker's own host (file:///path); give " + EXPECTED);
        }
        return of(Path.of(uri.getPath()));
    }
}
