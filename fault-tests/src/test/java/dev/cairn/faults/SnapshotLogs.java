package dev.cairn.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What coordinator logs tell of the snapshots their processes made ({@code SnapshotMaker}, {@code KafkaSnapshotStore}
 * at INFO): how many were written, how many failed, and how many were under way when a process was killed (a fold
 * logged as started and neither written nor failed by the end of the log). A fold that finds no journal record
 * since the newest snapshot ends at DEBUG, so it looks under way too: only the partitions that take records all the
 * time are counted.
 */
final class SnapshotLogs {

    private static final Pattern STARTED = Pattern.compile("Folding partition (\\d+) of \\S+ for a snapshot");
    private static final Pattern WRITTEN = Pattern.compile("Wrote the snapshot of partition (\\d+) ");
    private static final Pattern FAILED = Pattern.compile(
            "(?:Making a snapshot of partition|No snapshot of partition) (\\d+)");

    /**
     * @param written snapshots written
     * @param failed snapshots that failed (logged as such)
     * @param underWayAtTheEnd snapshots started and neither written nor failed when their log ends
     */
    record Counts(int written, int failed, int underWayAtTheEnd) {
        Counts plus(Counts other) {
            return new Counts(written + other.written, failed + other.failed,
                    underWayAtTheEnd + other.underWayAtTheEnd);
        }
    }

    private SnapshotLogs() {
    }

    /** The snapshots of {@code partitions} that the processes of {@code logs} made, summed over the logs. */
    static Counts count(List<Path> logs, Set<Integer> partitions) {
        Counts sum = new Counts(0, 0, 0);
        for (Path log : logs) {
            sum = sum.plus(count(log, partitions));
        }
        return sum;
    }

    private static Counts count(Path log, Set<Integer> partitions) {
        int written = 0;
        int failed = 0;
        Map<Integer, Boolean> underWay = new TreeMap<>();
        for (String line : read(log).lines().toList()) {
            Integer started = partition(STARTED, line, partitions);
            Integer done = partition(WRITTEN, line, partitions);
            Integer gaveUp = partition(FAILED, line, partitions);
            if (started != null) {
                underWay.put(started, true);
            } else if (done != null) {
                underWay.put(done, false);
                written++;
            } else if (gaveUp != null) {
                underWay.put(gaveUp, false);
                failed++;
            }
        }
        return new Counts(written, failed, (int) underWay.values().stream().filter(Boolean::booleanValue).count());
    }

    /** The partition {@code line} names by {@code pattern} if it is one of {@code partitions}, else null. */
    private static Integer partition(Pattern pattern, String line, Set<Integer> partitions) {
        Matcher matcher = pattern.matcher(line);
        if (!matcher.find()) {
            return null;
        }
        int partition = Integer.parseInt(matcher.group(1));
        return partitions.contains(partition) ? partition : null;
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
    }
}
