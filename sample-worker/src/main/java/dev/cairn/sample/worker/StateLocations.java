package dev.cairn.sample.worker;

import dev.cairn.kit.storage.FileStorage;
import dev.cairn.kit.storage.SnapshotStorage;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the sample worker's snapshots lie in a job's storage: {@code <base>/<job>/chk-<id>/<name>} for checkpoints
 * (the checkpoint's storage location and the worker's per-subtask name), the savepoint's target and the name for
 * savepoints. In: locations ({@code file:} URIs, plain paths, {@code s3://}); out: the job's directory of a
 * checkpoint's storage location, the checkpoint id of a state location, and whether a location lies under a
 * directory, comparing locations in one form (a local path as its absolute {@code file:} URI, no trailing slash).
 */
final class StateLocations {

    private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*", Pattern.DOTALL);

    private StateLocations() {
    }

    /**
     * The job's directory {@code <base>/<job>} of a checkpoint's storage location {@code <base>/<job>/chk-<id>};
     * empty for any other location (a savepoint's target).
     */
    static Optional<String> jobDirectory(SnapshotStorage storage, String storageLocation) throws IOException {
        return CHECKPOINT.matcher(lastSegment(storageLocation)).matches()
                ? Optional.of(canonical(storage.parent(storageLocation))) : Optional.empty();
    }

    /**
     * The id of the checkpoint whose state {@code location} is, when it is {@code <jobDirectory>/chk-<id>/<name>};
     * empty otherwise.
     */
    static OptionalLong checkpointId(String location, String jobDirectory, String name) throws IOException {
        String canonical = canonical(location);
        String prefix = jobDirectory + "/";
        String suffix = "/" + name;
        if (!canonical.startsWith(prefix) || !canonical.endsWith(suffix)
                || canonical.length() <= prefix.length() + suffix.length()) {
            return OptionalLong.empty();
        }
        Matcher checkpoint = CHECKPOINT.matcher(canonical.substring(prefix.length(),
                canonical.length() - suffix.length()));
        if (!checkpoint.matches()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(checkpoint.group(1)));
        } catch (NumberFormatException tooLong) {
            return OptionalLong.empty();
        }
    }

    /** Whether {@code location} lies below {@code directory} (in its canonical form). */
    static boolean isUnder(String location, String directory) throws IOException {
        return canonical(location).startsWith(directory + "/");
    }

    /** The last segment of a location: what follows its last slash (a trailing slash left out). */
    static String lastSegment(String location) {
        String trimmed = trimSlash(location);
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    /**
     * {@code location} in the form locations are compared in: a {@code file:} URI or path as the absolute, normalized
     * {@code file:} URI, any other location as written; no trailing slash.
     */
    static String canonical(String location) throws IOException {
        boolean local = !SCHEME.matcher(location).matches() || location.regionMatches(true, 0, "file:", 0, 5);
        String form = local ? FileStorage.path(location).toAbsolutePath().normalize().toUri().toString() : location;
        return trimSlash(form);
    }

    private static String trimSlash(String location) {
        String trimmed = location;
        while (trimmed.endsWith("/") && trimmed.length() > 1) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }
}
