package dev.cairn.demo;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Stand-ins for the demo job's task sidecars: they register one attempt per subtask, then answer every
 * trigger on {@code cairn.control} with acks on {@code cairn.acks} — except that the sink declines
 * every third checkpoint and the second map subtask stays silent on every fifth (savepoints are always
 * acknowledged), so the demo shows declines and expiries too.
 */
final class DemoTasks implements Runnable, AutoCloseable {

    private final String jobId;
    private final CairnTopics topics;
    private final KafkaConsumer<String, ControlEnvelope> control;
    private final KafkaProducer<String, AckEnvelope> acks;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread = new Thread(this, "demo-tasks");

    DemoTasks(String bootstrapServers, CairnTopics topics, String jobId) {
        this.jobId = jobId;
        this.topics = topics;
        this.control = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10), new StringDeserializer(), CairnSerdes.control().deserializer());
        this.acks = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(), CairnSerdes.acks().serializer());
    }

    /** Takes the control topic's end as the starting point, registers every subtask, and starts answering. */
    void start(Map<String, Integer> parallelism) {
        List<TopicPartition> partitions = control.partitionsFor(topics.control()).stream()
                .map(p -> new TopicPartition(topics.control(), p.partition())).toList();
        control.assign(partitions);
        control.seekToEnd(partitions);
        partitions.forEach(control::position);
        parallelism.forEach((task, count) -> {
            for (int subtask = 0; subtask < count; subtask++) {
                send(new AckEnvelope(TaskStarted.newBuilder().setJobId(jobId).setTaskId(task).setSubtaskIndex(subtask)
                        .setAttemptId(attempt(task, subtask)).setTimestampMs(System.currentTimeMillis()).build()));
            }
        });
        thread.start();
    }

    @Override
    public void run() {
        while (running.get()) {
            for (ConsumerRecord<String, ControlEnvelope> record : control.poll(Duration.ofMillis(100))) {
                if (record.value().getEvent() instanceof CheckpointTriggered trigger && trigger.getJobId().equals(jobId)) {
                    answer(trigger);
                }
            }
        }
    }

    private void answer(CheckpointTriggered trigger) {
        long id = trigger.getCheckpointId();
        for (PlannedVertex vertex : trigger.getPlan()) {
            for (int subtask = 0; subtask < vertex.getAttemptIds().size(); subtask++) {
                String task = vertex.getTaskId();
                boolean checkpoint = trigger.getType() == CheckpointType.CHECKPOINT;
                if (checkpoint && task.equals("sink") && id % 3 == 0) {
                    send(new AckEnvelope(CheckpointDeclined.newBuilder().setJobId(jobId).setCheckpointId(id)
                            .setTaskId(task).setSubtaskIndex(subtask).setAttemptId(attempt(task, subtask))
                            .setReason(CheckpointFailureReason.CHECKPOINT_DECLINED)
                            .setMessage("the sink's transaction could not be pre-committed")
                            .setTimestampMs(System.currentTimeMillis()).build()));
                } else if (!(checkpoint && task.equals("map") && subtask == 1 && id % 5 == 0)) {
                    send(new AckEnvelope(ack(trigger, task, subtask)));
                }
            }
        }
    }

    private CheckpointAcknowledged ack(CheckpointTriggered trigger, String task, int subtask) {
        long now = System.currentTimeMillis();
        return CheckpointAcknowledged.newBuilder().setJobId(jobId).setCheckpointId(trigger.getCheckpointId())
                .setTaskId(task).setSubtaskIndex(subtask).setAttemptId(attempt(task, subtask))
                .setStateHandle(StateHandle.newBuilder()
                        .setLocation(trigger.getStorageLocation() + "/" + task + "-" + subtask)
                        .setSizeBytes(4_096L * (subtask + 1)).build())
                .setMetrics(SubtaskMetrics.newBuilder().setStartDelayMs(Math.max(0, now - trigger.getTimestampMs()))
                        .setSyncDurationMs(1).setAsyncDurationMs(3).build())
                .setTimestampMs(now).build();
    }

    private String attempt(String task, int subtask) {
        return task + "-" + subtask + "-" + UUID.nameUUIDFromBytes((jobId + task + subtask).getBytes()).toString()
                .substring(0, 8);
    }

    private void send(AckEnvelope event) {
        acks.send(new ProducerRecord<>(topics.acks(), jobId, event));
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(5_000);
        control.close();
        acks.close();
    }
}
