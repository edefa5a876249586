package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.sink.RestorePlan;
import dev.cairn.kit.sink.RestorePlan.Verdict;
import dev.cairn.kit.storage.FileStorage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * An upgrade in place from the release before key-group routing on a source → count → sink dataflow of kit tasks
 * against the in-JVM KRaft broker, with the test in the coordinator's place ({@link KitJob}): the job stops with a
 * savepoint whose operator state files the test rewrites as 0.3.0 wrote them (format 1, subtask {@code i} holding
 * the partitions {@code p % 2 == i} of the 4 of its input and every key routed there by {@code murmur2 % 4}), and
 * every subtask of this release resumes from it at the same parallelism: the counts go on exactly once.
 */
class PreviousReleaseUpgradeIT extends KitJobTestBase {

    private static final int PARTITIONS = 4;

    PreviousReleaseUpgradeIT() {
        super("upgrade");
    }

    @Test
    void shouldCountExactlyOnceAfterResumingInPlaceFromASavepointOfThePreviousRelease() throws Exception {
        // given a job stopped with a savepoint, without drain, whose operators' files are the previous release's
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);
        long savepoint = stopAndAwait();
        Path directory = checkpoints.resolve("savepoint-" + savepoint);
        asPreviousRelease(directory, "count", ".keyed");
        asPreviousRelease(directory, "sink", ".counts");

        // when every subtask of this release resumes from it, and more input comes
        job.resume();
        produce(1_000);

        // then every record is counted exactly once, and no sink went back behind its output
        awaitExactlyOnce();
        for (String sink : List.of("sink-0", "sink-1")) {
            assertThat(job.restorePlan(sink)).map(RestorePlan::verdict).hasValue(Verdict.ALREADY_COMMITTED);
        }
    }

    /**
     * Rewrites the state files of {@code task}'s 2 subtasks in the savepoint as 0.3.0 would have written them: the
     * files of this release read together, then split by that release's ownership, each as format 1, the group
     * objects deleted.
     */
    private void asPreviousRelease(Path directory, String task, String input) throws IOException {
        String taskId = prefix + "-" + task;
        String topic = prefix + input;
        OperatorTaskConfig all = OperatorTaskConfig.of(taskId, 0, 1, 2, topic, kafka.bootstrapServers())
                .withStorage(new FileStorage());
        List<OperatorState> states = new ArrayList<>();
        for (int subtask = 0; subtask < KitJob.PARALLELISM; subtask++) {
            states.add(SnapshotFiles.read(all, file(directory, taskId, subtask), subtask));
        }
        InputPositions positions = OperatorRestore.merge(states.stream().map(OperatorState::positions).toList());
        try (Stream<Path> files = Files.list(directory)) {
            for (Path group : files.filter(path -> path.getFileName().toString().startsWith("operator-" + taskId)
                    && path.getFileName().toString().contains(".kg")).toList()) {
                Files.delete(group);
            }
        }
        for (int subtask = 0; subtask < KitJob.PARALLELISM; subtask++) {
            Map<KeyedState.Key, byte[]> held = new TreeMap<>();
            for (OperatorState state : states) {
                int old = subtask;
                state.entries().forEach((key, value) -> {
                    if (PreviousRelease.readBy(PreviousRelease.partitionOf(key.bytes(), PARTITIONS),
                            KitJob.PARALLELISM, old)) {
                        held.put(key, value);
                    }
                });
            }
            OperatorState state = states.get(subtask);
            Files.write(Path.of(URI.create(file(directory, taskId, subtask))), PreviousRelease.stateFile(
                    taskId, subtask, state.checkpointId(), state.generation(), topic, readBy(positions, subtask),
                    held));
        }
    }

    private static String file(Path directory, String taskId, int subtask) {
        return directory.resolve("operator-" + taskId + "-" + subtask + ".state").toUri().toString();
    }

    /** Of {@code positions}, those of the partitions 0.3.0's subtask {@code subtask} read. */
    private static InputPositions readBy(InputPositions positions, int subtask) {
        Map<InputPartition, Long> restart = new TreeMap<>();
        positions.restartOffsets().forEach((partition, offset) -> {
            if (PreviousRelease.readBy(partition.partition(), KitJob.PARALLELISM, subtask)) {
                restart.put(partition, offset);
            }
        });
        Map<Channel, Long> reflected = new TreeMap<>();
        positions.reflectedThrough().forEach((channel, offset) -> {
            if (PreviousRelease.readBy(channel.partition().partition(), KitJob.PARALLELISM, subtask)) {
                reflected.put(channel, offset);
            }
        });
        return new InputPositions(restart, reflected);
    }
}
