package dev.cairn.bench.audit;

import dev.cairn.auth.SigningKey;
import dev.cairn.auth.SigningSerializer;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.events.topics.JobPartitions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Jobs that keep checkpointing while the rebuild benchmark's coordinator rebuilds other partitions, driven as users
 * and sidecars drive them (as the end-to-end benchmark's driver does): one job of one vertex per given partition (its
 * id picked so that it lives there, {@link JobPartitions}), its spec and trigger requests signed with the requests key
 * on {@code requests}, its TaskStarted and acks signed with the job's key on {@code acks}; the coordinator's answers
 * read with {@code read_committed} from the journal (the spec and the starts accepted) and from {@code control}
 * (triggered, completed), of those partitions only, from their end when the jobs were made. A command rejected, a
 * checkpoint aborted, a dead letter or a checkpoint id completed twice fails the run at once. Not thread-safe.
 */
final class LiveJobs implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(20);
    private static final long ONE_YEAR_MS = 365L * 24 * 3600 * 1000;

    /** One job: its id, its vertex's id, its subtasks' attempt ids. */
    private record Job(String id, String taskId, String[] attempts) {
    }

    /** What one round of checkpoints completed: how many, and how many while the watched rebuild still ran. */
    record Round(int completed, int whileRebuilding) {
    }

    private final CairnTopics topics;
    private final Duration timeout;
    private final Runnable afterPoll;
    private final List<Job> jobs;
    private final KafkaProducer<String, RequestEnvelope> requests;
    private final KafkaProducer<String, AckEnvelope> acks;
    private final KafkaConsumer<String, JournalEnvelope> journal;
    private final KafkaConsumer<String, ControlEnvelope> control;
    private final KafkaConsumer<byte[], byte[]> deadLetters;
    private final Map<String, Long> lastCompleted = new HashMap<>();

    /**
     * Makes one job of {@code subtasks} subtasks on each of {@code partitions} (of {@code total}) and the clients.
     *
     * @param afterPoll runs after every poll of a wait (the caller watches the rebuild with it)
     */
    LiveJobs(String bootstrap, CairnTopics topics, SigningKey masterKey, List<Integer> partitions, int total,
            int subtasks, Duration timeout, Runnable afterPoll) {
        this.topics = topics;
        this.timeout = timeout;
        this.afterPoll = afterPoll;
        this.jobs = partitions.stream().map(p -> newJob(p, total, subtasks)).toList();
        Map<String, SigningKey> jobKeys = new HashMap<>();
        jobs.forEach(job -> jobKeys.put(job.id(), masterKey.jobKey(job.id())));
        this.requests = new KafkaProducer<>(producerSettings(bootstrap), new StringSerializer(),
                new SigningSerializer<>(CairnSerdes.requests().serializer(), masterKey.requestsKey()));
        this.acks = new KafkaProducer<>(producerSettings(bootstrap), new StringSerializer(),
                new SigningSerializer<>(CairnSerdes.acks().serializer(), a -> jobKeys.get(EnvelopeJobIds.of(a))));
        this.journal = follow(bootstrap, topics.journal(), partitions, CairnSerdes.journal().deserializer());
        this.control = follow(bootstrap, topics.control(), partitions, CairnSerdes.control().deserializer());
        this.deadLetters = new KafkaConsumer<>(consumerSettings(bootstrap), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        List<TopicPartition> dlq = deadLetters.partitionsFor(topics.dlq()).stream()
                .map(p -> new TopicPartition(topics.dlq(), p.partition())).toList();
        deadLetters.assign(dlq);
        deadLetters.seekToEnd(dlq);
        dlq.forEach(deadLetters::position);
    }

    private static Job newJob(int partition, int total, int subtasks) {
        String id;
        do {
            id = UUID.randomUUID().toString().replace("-", "");
        } while (JobPartitions.of(id, total) != partition);
        String[] attempts = new String[subtasks];
        for (int s = 0; s < subtasks; s++) {
            attempts[s] = UUID.randomUUID().toString();
        }
        return new Job(id, UUID.randomUUID().toString().replace("-", ""), attempts);
    }

    /** Registers every job and starts its subtasks, waiting on the journal for the spec, then for every start. */
    void register() {
        jobs.forEach(job -> requests.send(new ProducerRecord<>(topics.requests(), job.id(), spec(job))));
        requests.flush();
        int[] accepted = {0};
        poll(journal, record -> {
            Object event = record.value().getEvent();
            if (event instanceof JobSpec) {
                accepted[0]++;
            }
            refuseRejected(event);
        }, () -> accepted[0] == jobs.size(), "job spec in the journal");
        for (Job job : jobs) {
            for (int s = 0; s < job.attempts().length; s++) {
                acks.send(new ProducerRecord<>(topics.acks(), job.id(), new AckEnvelope(TaskStarted.newBuilder()
                        .setJobId(job.id()).setTaskId(job.taskId()).setSubtaskIndex(s)
                        .setAttemptId(job.attempts()[s]).setTimestampMs(System.currentTimeMillis()).build())));
            }
        }
        acks.flush();
        long expected = jobs.stream().mapToLong(job -> job.attempts().length).sum();
        long[] started = {0};
        poll(journal, record -> {
            if (record.value().getEvent() instanceof TaskStarted) {
                started[0]++;
            }
            refuseRejected(record.value().getEvent());
        }, () -> started[0] == expected, "TaskStarted in the journal");
    }

    /**
     * One checkpoint of every job: a trigger request each, its CheckpointTriggered, every subtask's ack, its
     * CheckpointCompleted; each completion counts as while rebuilding when {@code rebuilding} says so as it is read.
     */
    Round round(BooleanSupplier rebuilding) {
        Map<String, String> jobByRequest = new HashMap<>();
        for (Job job : jobs) {
            String requestId = UUID.randomUUID().toString();
            jobByRequest.put(requestId, job.id());
            requests.send(new ProducerRecord<>(topics.requests(), job.id(), new RequestEnvelope(TriggerRequest
                    .newBuilder().setJobId(job.id()).setRequestId(requestId).setType(CheckpointType.CHECKPOINT)
                    .setForce(false).setRequester("rebuild-benchmark").setTimestampMs(System.currentTimeMillis())
                    .build())));
        }
        requests.flush();
        Map<String, Long> triggered = new HashMap<>();
        poll(control, record -> {
            if (record.value().getEvent() instanceof CheckpointTriggered t && t.getRequestId() != null
                    && t.getJobId().equals(jobByRequest.get(t.getRequestId()))) {
                triggered.put(t.getJobId(), t.getCheckpointId());
            }
        }, () -> triggered.size() == jobs.size(), "CheckpointTriggered on " + topics.control());
        for (Job job : jobs) {
            long id = triggered.get(job.id());
            for (int s = 0; s < job.attempts().length; s++) {
                acks.send(new ProducerRecord<>(topics.acks(), job.id(), ack(job, s, id)));
            }
        }
        acks.flush();
        int[] completed = {0, 0};
        poll(control, record -> {
            Object event = record.value().getEvent();
            if (event instanceof CheckpointCompleted c && triggered.containsKey(c.getJobId())
                    && c.getCheckpointId() == triggered.get(c.getJobId())) {
                Long last = lastCompleted.put(c.getJobId(), c.getCheckpointId());
                if (last != null && last >= c.getCheckpointId()) {
                    throw new IllegalStateException("checkpoint " + c.getCheckpointId() + " of live job "
                            + c.getJobId() + " completed after checkpoint " + last + ": a checkpoint id repeated");
                }
                completed[0]++;
                completed[1] += rebuilding.getAsBoolean() ? 1 : 0;
            } else if (event instanceof CheckpointAborted a && triggered.containsKey(a.getJobId())) {
                throw new IllegalStateException("checkpoint " + a.getCheckpointId() + " of live job " + a.getJobId()
                        + " aborted: " + a.getReason() + " (" + a.getMessage() + ")");
            }
        }, () -> completed[0] == jobs.size(), "CheckpointCompleted on " + topics.control());
        return new Round(completed[0], completed[1]);
    }

    private RequestEnvelope spec(Job job) {
        return new RequestEnvelope(JobSpec.newBuilder().setJobId(job.id())
                .setTasks(List.of(TaskVertex.newBuilder().setTaskId(job.taskId())
                        .setParallelism(job.attempts().length).build()))
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(ONE_YEAR_MS).setTimeoutMs(600_000)
                        .setMaxConcurrent(1).setTolerableFailures(1_000).setRetained(1)
                        .setStorageBaseLocation("s3://cairn-bench-checkpoints").build())
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    private static AckEnvelope ack(Job job, int subtask, long checkpointId) {
        return new AckEnvelope(CheckpointAcknowledged.newBuilder().setJobId(job.id()).setCheckpointId(checkpointId)
                .setTaskId(job.taskId()).setSubtaskIndex(subtask).setAttemptId(job.attempts()[subtask])
                .setStateHandle(StateHandle.newBuilder().setLocation("s3://cairn-bench-checkpoints/" + job.id()
                        + "/chk-" + checkpointId + "/" + subtask).setSizeBytes(1_048_576).build())
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(3).setAsyncDurationMs(250).build())
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    private void refuseRejected(Object event) {
        if (event instanceof CommandRejected rejected) {
            throw new IllegalStateException("the coordinator rejected " + rejected.getCommandType() + " of live job "
                    + rejected.getJobId() + ": " + rejected.getReason());
        }
    }

    /** Polls {@code consumer} into {@code handler} until {@code done}, watching the dead letters after each poll. */
    private <V> void poll(KafkaConsumer<String, V> consumer, Consumer<ConsumerRecord<String, V>> handler,
            BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the live jobs saw no " + what + " within " + timeout);
            }
            consumer.poll(POLL).forEach(handler);
            deadLetters.poll(Duration.ZERO).forEach(letter -> {
                throw new IllegalStateException("a record of " + header(letter, DeadLetterQueueHandler.SOURCE_TOPIC)
                        + " was dead-lettered: " + header(letter, DeadLetterQueueHandler.REASON) + ", "
                        + header(letter, DeadLetterQueueHandler.MESSAGE));
            });
            afterPoll.run();
        }
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? "?" : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static <V> KafkaConsumer<String, V> follow(String bootstrap, String topic, List<Integer> partitions,
            Deserializer<V> values) {
        KafkaConsumer<String, V> consumer = new KafkaConsumer<>(consumerSettings(bootstrap), new StringDeserializer(),
                values);
        List<TopicPartition> assigned = partitions.stream().map(p -> new TopicPartition(topic, p)).toList();
        consumer.assign(assigned);
        consumer.seekToEnd(assigned);
        assigned.forEach(consumer::position); // fix the end now, before anything is produced
        return consumer;
    }

    private static Map<String, Object> consumerSettings(String bootstrap) {
        return Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    }

    private static Map<String, Object> producerSettings(String bootstrap) {
        return Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 0);
    }

    @Override
    public void close() {
        requests.close();
        acks.close();
        journal.close();
        control.close();
        deadLetters.close();
    }
}
