package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Workload.Job;
import dev.cairn.bench.e2e.Workload.Vertex;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.topics.CairnTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Drives one coordinator the way users and sidecars do: job specs and trigger requests on {@code requests} (signed
 * with the requests key), TaskStarted and acks on {@code acks} (idempotent producer, {@code acks=all}, batching;
 * signed in the producer's serializer with the job's key); neither is signed when the workload's
 * {@link SidecarKeys} are unsigned. Notifications read from
 * {@code control} with {@code read_committed}. Only the job id, checkpoint id, request id and type of the
 * control events are read (never a trigger's plan or a completion's subtask states). Every wait also watches
 * {@code dlq}, so a dead-lettered trigger or completion fails the row at once instead of waiting for a time-out.
 */
final class CairnDriver implements AutoCloseable {

    /** Dead-letter reasons of an acks-topic record refused for its signature (not for what it decided). */
    private static final Set<String> SIGNATURE_PROBLEMS = Set.of(EventDecodingException.Problem.UNSIGNED.name(),
            EventDecodingException.Problem.BAD_SIGNATURE.name());

    private final String bootstrap;
    private final CairnTopics topics;
    private final Workload workload;
    private final Duration timeout;
    private final KafkaProducer<String, RequestEnvelope> requests;
    private final KafkaProducer<String, AckEnvelope> acks;
    private final Follower<ControlEnvelope> control;
    private final Follower<byte[]> deadLetters;
    private final AtomicReference<Exception> sendFailure = new AtomicReference<>();
    /** Jobs whose control records are counted, and their bytes (key + value) so far. */
    private final Map<String, Long> controlBytes = new HashMap<>();

    CairnDriver(String bootstrap, CairnTopics topics, Workload workload, Duration timeout, int ackLingerMs) {
        this.bootstrap = bootstrap;
        this.topics = topics;
        this.workload = workload;
        this.timeout = timeout;
        this.requests = new KafkaProducer<>(producerSettings(bootstrap, 0), new StringSerializer(),
                workload.keys().requestSerializer());
        this.acks = new KafkaProducer<>(producerSettings(bootstrap, ackLingerMs), new StringSerializer(),
                workload.keys().ackSerializer());
        this.control = new Follower<>(bootstrap, topics.control(), CairnSerdes.control().deserializer());
        this.deadLetters = new Follower<>(bootstrap, topics.dlq(), new ByteArrayDeserializer());
    }

    /** Producer settings of the benchmark's clients: idempotent, {@code acks=all}, 256 KiB batches. */
    static Map<String, Object> producerSettings(String bootstrap, int lingerMs) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        return props;
    }

    CairnTopics topics() {
        return topics;
    }

    Workload workload() {
        return workload;
    }

    /**
     * Registers {@code count} jobs of {@code subtasks} subtasks and starts every subtask, waiting on the journal
     * until the coordinator accepted each job spec (requests and acks are separate topics, so a TaskStarted
     * could overtake its job spec) and then every TaskStarted.
     */
    List<Job> register(int count, int subtasks) {
        List<Job> jobs = java.util.stream.IntStream.range(0, count).mapToObj(i -> workload.newJob(subtasks)).toList();
        Set<String> ids = new HashSet<>();
        jobs.forEach(job -> ids.add(job.id()));
        try (Follower<JournalEnvelope> journal = new Follower<>(bootstrap, topics.journal(),
                CairnSerdes.journal().deserializer())) {
            jobs.forEach(job -> send(requests, topics.requests(), job.id(), workload.jobSpec(job)));
            requests.flush();
            Set<String> accepted = new HashSet<>();
            journal.pollUntil(record -> {
                Object event = record.value().getEvent();
                if (event instanceof JobSpec spec && ids.contains(spec.getJobId())) {
                    accepted.add(spec.getJobId());
                }
                rejectOnCommandRejected(event, ids);
            }, () -> accepted.size() == count, timeout, this::checkDeadLetters, "job spec");
            for (Job job : jobs) {
                for (Vertex vertex : job.vertices()) {
                    for (int s = 0; s < vertex.attemptIds().length; s++) {
                        send(acks, topics.acks(), job.id(), workload.taskStarted(job, vertex, s));
                    }
                }
            }
            acks.flush();
            long expected = (long) count * subtasks;
            long[] started = {0};
            journal.pollUntil(record -> {
                Object event = record.value().getEvent();
                if (event instanceof TaskStarted t && ids.contains(t.getJobId())) {
                    started[0]++;
                }
                rejectOnCommandRejected(event, ids);
            }, () -> started[0] == expected, timeout, this::checkDeadLetters, "TaskStarted");
        }
        return jobs;
    }

    private static void rejectOnCommandRejected(Object event, Set<String> ids) {
        if (event instanceof CommandRejected rejected && ids.contains(rejected.getJobId())) {
            throw new RowFailedException("command rejected: " + rejected);
        }
    }

    /**
     * Produces one manual TriggerRequest per job and waits until every job's CheckpointTriggered (carrying the
     * request id) is read from {@code control}.
     *
     * @return the checkpoint id triggered, by job id
     */
    Map<String, Long> triggerAll(List<Job> jobs) {
        Map<String, String> jobByRequest = new HashMap<>();
        for (Job job : jobs) {
            String requestId = UUID.randomUUID().toString();
            jobByRequest.put(requestId, job.id());
            send(requests, topics.requests(), job.id(), workload.trigger(job, requestId));
        }
        requests.flush();
        Map<String, Long> checkpoints = new HashMap<>();
        control.pollUntil(record -> {
            count(record);
            if (record.value().getEvent() instanceof CheckpointTriggered t && t.getRequestId() != null
                    && t.getJobId().equals(jobByRequest.get(t.getRequestId()))) {
                checkpoints.put(t.getJobId(), t.getCheckpointId());
            }
        }, () -> checkpoints.size() == jobs.size(), timeout, () -> checkDeadLetters(), "CheckpointTriggered");
        return checkpoints;
    }

    /**
     * Produces every ack of every job's checkpoint, interleaved across jobs (subtask 0 of every job, then
     * subtask 1, ...) as sidecars of jobs running side by side would, then flushes.
     *
     * @return the number of acks produced
     */
    long sendAcks(List<Job> jobs, Map<String, Long> checkpoints) {
        int most = jobs.stream().mapToInt(Job::subtasks).max().orElse(0);
        long sent = 0;
        for (int i = 0; i < most; i++) {
            for (Job job : jobs) {
                if (i < job.subtasks()) {
                    Vertex vertex = job.vertices().get(i / Workload.MAX_VERTEX_PARALLELISM);
                    int subtask = i % Workload.MAX_VERTEX_PARALLELISM;
                    send(acks, topics.acks(), job.id(), workload.ack(job, vertex, subtask, checkpoints.get(job.id())));
                    sent++;
                }
            }
        }
        acks.flush();
        if (sendFailure.get() != null) {
            throw new RowFailedException("an ack could not be produced: " + sendFailure.get());
        }
        return sent;
    }

    /**
     * Waits until the CheckpointCompleted of every given checkpoint is read from {@code control}.
     *
     * @throws RowFailedException when one of them is aborted or its completion dead-lettered
     */
    void awaitCompletions(Map<String, Long> checkpoints) {
        Set<String> pending = new HashSet<>(checkpoints.keySet());
        control.pollUntil(record -> {
            count(record);
            Object event = record.value().getEvent();
            if (event instanceof CheckpointCompleted c && Long.valueOf(c.getCheckpointId())
                    .equals(checkpoints.get(c.getJobId()))) {
                pending.remove(c.getJobId());
            } else if (event instanceof CheckpointAborted a && Long.valueOf(a.getCheckpointId())
                    .equals(checkpoints.get(a.getJobId()))) {
                throw new RowFailedException("checkpoint aborted: " + a.getReason() + " (" + a.getMessage() + ")");
            }
        }, pending::isEmpty, timeout, this::checkDeadLetters, "CheckpointCompleted");
    }

    /** Counts the control bytes (key + value) of {@code jobId} from now on; see {@link #controlBytes}. */
    void countControlBytes(String jobId) {
        controlBytes.put(jobId, 0L);
    }

    long controlBytes(String jobId) {
        return controlBytes.getOrDefault(jobId, 0L);
    }

    private void count(ConsumerRecord<String, ControlEnvelope> record) {
        controlBytes.computeIfPresent(record.key(), (job, bytes) -> bytes + Math.max(0, record.serializedKeySize())
                + Math.max(0, record.serializedValueSize()));
    }

    /** Drops dead letters left by an earlier, failed row, so that they do not fail the next one. */
    int drainDeadLetters() {
        int[] drained = {0};
        deadLetters.pollNow(record -> drained[0]++);
        return drained[0];
    }

    /** @throws RowFailedException naming the stage and reason of the first new dead letter */
    private void checkDeadLetters() {
        deadLetters.pollNow(record -> {
            String source = header(record, DeadLetterQueueHandler.SOURCE_TOPIC);
            String reason = header(record, DeadLetterQueueHandler.REASON);
            String what = topics.requests().equals(source)
                    ? (SIGNATURE_PROBLEMS.contains(reason) ? "request" : "trigger")
                    : !topics.acks().equals(source) ? "record of " + source
                    : SIGNATURE_PROBLEMS.contains(reason) ? "sidecar record" : "completion (the last ack's decision)";
            throw new RowFailedException(what + " dead-lettered, " + reason);
        });
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? "?" : new String(header.value(), StandardCharsets.UTF_8);
    }

    private <V> void send(KafkaProducer<String, V> producer, String topic, String key, V value) {
        producer.send(new ProducerRecord<>(topic, key, value), (metadata, error) -> {
            if (error != null) {
                sendFailure.compareAndSet(null, error);
            }
        });
    }

    @Override
    public void close() {
        requests.close();
        acks.close();
        control.close();
        deadLetters.close();
    }
}
