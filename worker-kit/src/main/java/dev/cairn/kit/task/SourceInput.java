package dev.cairn.kit.task;

import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a source subtask stands in its input: per assigned partition the first record not yet processed, and, for a
 * bounded input, the end offsets seen at start. Reads the restore point's state, positions the consumer at restore, and
 * moves it back to the positions when the task stops reading in the middle of a batch. The task's loop thread owns it
 * (and the consumer).
 */
final class SourceInput {

    private static final Logger LOG = LoggerFactory.getLogger(SourceInput.class);

    private final SourceTaskConfig config;
    private final String name;
    private final Map<TopicPartition, Long> positions = new HashMap<>();
    private final Map<TopicPartition, Long> ends = new HashMap<>();

    SourceInput(SourceTaskConfig config, String name) {
        this.config = config;
        this.name = name;
    }

    /**
     * The state of the restore point {@code point}.
     *
     * @throws IOException when the file cannot be read, is corrupt, or belongs to another subtask or input
     */
    SourceState read(RestorePoint point) throws IOException {
        SourceState state = SourceStateCodec.read(config.storage(), point.location());
        if (!state.taskId().equals(config.taskId()) || state.subtask() != config.subtask()
                || !state.inputTopic().equals(config.inputTopic())) {
            throw new IOException("the snapshot " + point.location() + " belongs to source " + state.taskId()
                    + " subtask " + state.subtask() + " reading " + state.inputTopic() + ", not to source " + name
                    + " reading " + config.inputTopic() + " (a source restores only its own subtask's snapshot)");
        }
        return state;
    }

    /**
     * The state of the rescaled restore point {@code point}: of every state it hands (every old subtask's, a source's
     * states being {@code UNION}), the positions of the partitions this subtask reads now ({@link SourceRescale}).
     *
     * @throws IOException when a file cannot be read, is corrupt, or belongs to another task or input
     */
    SourceState readRescaled(RestorePoint point) throws IOException {
        List<SourceState> olds = new ArrayList<>();
        for (RestoredState handed : point.states()) {
            SourceState state = SourceStateCodec.read(config.storage(), handed.location());
            if (!state.taskId().equals(config.taskId()) || !state.inputTopic().equals(config.inputTopic())) {
                throw new IOException("the snapshot " + handed.location() + " belongs to source " + state.taskId()
                        + " reading " + state.inputTopic() + ", not to source " + config.taskId() + " reading "
                        + config.inputTopic());
            }
            olds.add(state);
        }
        SourceState merged = SourceRescale.merge(config, point.checkpointId(), olds);
        LOG.info("Source {}: rescaled from {} to {} subtasks: takes the positions {} from {} states of checkpoint {}",
                name, point.previousParallelism(), point.parallelism(), merged.positions(), olds.size(),
                point.checkpointId());
        return merged;
    }

    /**
     * Assigns the subtask's partitions to {@code consumer} and seeks it to the restored positions (or the
     * configured start).
     *
     * @throws IllegalStateException when the input topic does not exist, the state holds partitions this subtask
     *     does not read, or a restored position no longer exists ({@link RestoredOffsets})
     */
    void assign(Consumer<byte[], byte[]> consumer, Optional<SourceState> state) {
        int inputPartitions = consumer.partitionsFor(config.inputTopic()).size();
        if (inputPartitions == 0) {
            throw new IllegalStateException("source " + name + ": the input topic " + config.inputTopic()
                    + " does not exist");
        }
        List<Integer> assigned = Partitioning.assigned(inputPartitions, config.parallelism(), config.subtask());
        state.ifPresent(s -> {
            if (!assigned.containsAll(s.positions().keySet())) {
                throw new IllegalStateException("source " + name + ": the restored state holds positions of the "
                        + "partitions " + s.positions().keySet() + ", and this subtask reads " + assigned
                        + " (the parallelism changed without a rescaled restore point?)");
            }
        });
        List<TopicPartition> mine = assigned.stream().map(p -> new TopicPartition(config.inputTopic(), p)).toList();
        consumer.assign(mine);
        Map<TopicPartition, Long> restored = new HashMap<>();
        state.ifPresent(s -> mine.stream().filter(p -> s.positions().containsKey(p.partition()))
                .forEach(p -> restored.put(p, s.positions().get(p.partition()))));
        Map<TopicPartition, Long> checked = RestoredOffsets.check(consumer, restored,
                config.consumerSettings().get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "source " + name);
        for (TopicPartition partition : mine) {
            Long offset = checked.get(partition);
            if (offset != null) {
                consumer.seek(partition, offset);
            } else if (state.isPresent() || config.startFrom() == SourceTaskConfig.StartFrom.EARLIEST) {
                if (state.isPresent()) {
                    LOG.warn("Source {}: the restored state has no position for {}: reading it from the beginning",
                            name, partition);
                }
                consumer.seekToBeginning(List.of(partition));
            } else {
                consumer.seekToEnd(List.of(partition));
            }
        }
        // with auto.offset.reset=none, a position is asked for only once every partition has been sought
        for (TopicPartition partition : mine) {
            positions.put(partition, consumer.position(partition));
        }
        if (config.bounded()) {
            ends.putAll(consumer.endOffsets(mine));
        }
    }

    /** Whether the record at {@code offset} of {@code partition} is past the end of a bounded input. */
    boolean pastEnd(TopicPartition partition, long offset) {
        return config.bounded() && offset >= ends.get(partition);
    }

    /** The record at {@code offset} of {@code partition} was processed. */
    void processed(TopicPartition partition, long offset) {
        positions.put(partition, offset + 1);
    }

    /** A batch was processed whole: the positions follow the consumer's (up to a bounded input's end). */
    void batchDone(Consumer<byte[], byte[]> consumer) {
        for (TopicPartition partition : positions.keySet()) {
            long position = consumer.position(partition);
            positions.put(partition, config.bounded() ? Math.min(position, ends.get(partition)) : position);
        }
    }

    /** The rest of a batch is left unprocessed: the consumer goes back to the positions, to read it again. */
    void rewind(Consumer<byte[], byte[]> consumer) {
        positions.forEach(consumer::seek);
    }

    /** Whether the subtask reads no partition at all (it has more subtasks than the input has partitions). */
    boolean none() {
        return positions.isEmpty();
    }

    /** Whether a bounded input was read to its end (never for an unbounded one). */
    boolean exhausted() {
        return config.bounded()
                && ends.entrySet().stream().allMatch(end -> positions.get(end.getKey()) >= end.getValue());
    }

    /** The positions by partition number, as a snapshot holds them. */
    Map<Integer, Long> byPartition() {
        Map<Integer, Long> byPartition = new HashMap<>();
        positions.forEach((partition, offset) -> byPartition.put(partition.partition(), offset));
        return byPartition;
    }

    @Override
    public String toString() {
        return positions.toString();
    }
}
