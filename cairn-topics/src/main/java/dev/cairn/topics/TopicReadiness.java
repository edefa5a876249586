package dev.cairn.topics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Waits until freshly created topics can safely be produced to.
 *
 * <p>A {@code CreateTopics} request returns before every partition has a leader that serves requests.
 * Producing in that window can lose the first batch for good (KAFKA-15591: the batch fails with
 * {@code NOT_LEADER_OR_FOLLOWER}, later batches are accepted, and the retried first batch then loops on
 * {@code OUT_OF_ORDER_SEQUENCE_NUMBER} until it expires). A topic is considered ready here once every one of
 * its partitions has a leader and that leader answers a {@code ListOffsets} request for it.
 *
 * <p>Intended for tests and for production code alike (call it after creating topics, before producing):
 *
 * <pre>{@code
 * admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1))).all().get();
 * TopicReadiness.awaitReady(admin, List.of("orders"), Duration.ofSeconds(30));
 * }</pre>
 *
 * <p>Retriable errors (unknown topic right after creation, leader not available, time-outs, ...) are retried
 * with a short back-off until the deadline. Any other error, such as an authorization failure, is reported
 * at once. The admin client is not closed.
 */
public final class TopicReadiness {

    /** A generous default for {@link #awaitReady(Admin, Collection)}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final long INITIAL_BACKOFF_MILLIS = 10;
    private static final long MAX_BACKOFF_MILLIS = 250;

    private TopicReadiness() {
    }

    /**
     * Waits up to {@link #DEFAULT_TIMEOUT} until every partition of every topic has a leader that answers
     * {@code ListOffsets}.
     *
     * @param admin  an admin client connected to the cluster; not closed
     * @param topics the topic names
     * @throws TopicNotReadyException if a topic is not ready in time, or a non-retriable error occurs
     */
    public static void awaitReady(Admin admin, Collection<String> topics) {
        awaitReady(admin, topics, DEFAULT_TIMEOUT);
    }

    /**
     * Waits up to {@code timeout} until every partition of every topic has a leader that answers
     * {@code ListOffsets}. Returns at once for an empty collection.
     *
     * @param admin   an admin client connected to the cluster; not closed
     * @param topics  the topic names
     * @param timeout the longest time to wait in total
     * @throws TopicNotReadyException if a topic is not ready in time, a non-retriable error occurs, or the
     *                                calling thread is interrupted (its interrupt flag is then set again)
     */
    public static void awaitReady(Admin admin, Collection<String> topics, Duration timeout) {
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(timeout, "timeout");
        Set<String> pending = new LinkedHashSet<>(Objects.requireNonNull(topics, "topics"));
        if (pending.isEmpty()) {
            return;
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = INITIAL_BACKOFF_MILLIS;
        Map<String, String> reasons = new TreeMap<>();
        Throwable lastError = null;
        try {
            while (true) {
                reasons.clear();
                Round round = checkOnce(admin, pending, remainingMillis(deadline), reasons);
                pending.removeAll(round.readyTopics);
                if (round.lastError != null) {
                    lastError = round.lastError;
                }
                if (pending.isEmpty()) {
                    return;
                }
                if (remainingMillis(deadline) <= backoff) {
                    throw new TopicNotReadyException("Topics not ready after " + timeout + ": " + describe(reasons),
                            reasons.keySet(), lastError);
                }
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicNotReadyException("Interrupted while waiting for topics " + pending + " to be ready",
                    pending, e);
        }
    }

    /** One pass over the pending topics; fills {@code reasons} with what is not ready yet. */
    private static Round checkOnce(Admin admin, Set<String> pending, long budgetMillis, Map<String, String> reasons)
            throws InterruptedException {
        int requestTimeout = (int) Math.max(1, Math.min(budgetMillis, Integer.MAX_VALUE));
        Round round = new Round();
        Map<String, List<TopicPartition>> led = partitionsWithLeaders(admin, pending, requestTimeout, budgetMillis,
                reasons, round);
        if (!led.isEmpty()) {
            probeLeaders(admin, led, requestTimeout, budgetMillis, reasons, round);
        }
        return round;
    }

    /** Step 1: describes the topics; returns, for each topic whose every partition has a leader, its partitions. */
    private static Map<String, List<TopicPartition>> partitionsWithLeaders(Admin admin, Set<String> pending,
            int requestTimeout, long budgetMillis, Map<String, String> reasons, Round round)
            throws InterruptedException {
        Map<String, KafkaFuture<TopicDescription>> descriptions = admin
                .describeTopics(pending, new DescribeTopicsOptions().timeoutMs(requestTimeout))
                .topicNameValues();
        Map<String, List<TopicPartition>> partitionsByTopic = new LinkedHashMap<>();
        for (String topic : pending) {
            TopicDescription description;
            try {
                description = descriptions.get(topic).get(budgetMillis, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                round.lastError = failFastUnlessRetriable(topic, e.getCause());
                reasons.put(topic, "not described yet (" + e.getCause() + ")");
                continue;
            } catch (java.util.concurrent.TimeoutException e) {
                round.lastError = e;
                reasons.put(topic, "describeTopics timed out");
                continue;
            }
            String problem = leaderProblem(description);
            if (problem == null) {
                partitionsByTopic.put(topic, description.partitions().stream()
                        .map(info -> new TopicPartition(topic, info.partition())).toList());
            } else {
                reasons.put(topic, problem);
            }
        }
        return partitionsByTopic;
    }

    /** Why a described topic cannot be probed yet, or {@code null} when every partition has a leader. */
    private static String leaderProblem(TopicDescription description) {
        if (description.partitions().isEmpty()) {
            return "no partitions reported yet";
        }
        List<Integer> leaderless = new ArrayList<>();
        for (TopicPartitionInfo info : description.partitions()) {
            Node leader = info.leader();
            if (leader == null || leader.isEmpty() || leader.id() < 0) {
                leaderless.add(info.partition());
            }
        }
        return leaderless.isEmpty() ? null : "no leader for partitions " + leaderless;
    }

    /** Step 2: asks the leaders for the latest offsets; a topic whose every partition answers is ready. */
    private static void probeLeaders(Admin admin, Map<String, List<TopicPartition>> partitionsByTopic,
            int requestTimeout, long budgetMillis, Map<String, String> reasons, Round round)
            throws InterruptedException {
        Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
        partitionsByTopic.values().forEach(
                partitions -> partitions.forEach(tp -> request.put(tp, OffsetSpec.latest())));
        ListOffsetsResult offsets = admin.listOffsets(request, new ListOffsetsOptions().timeoutMs(requestTimeout));
        for (Map.Entry<String, List<TopicPartition>> entry : partitionsByTopic.entrySet()) {
            String topic = entry.getKey();
            List<Integer> unanswered = new ArrayList<>();
            String firstProblem = null;
            for (TopicPartition tp : entry.getValue()) {
                String problem = probe(offsets, tp, budgetMillis, round);
                if (problem != null) {
                    unanswered.add(tp.partition());
                    firstProblem = firstProblem == null ? problem : firstProblem;
                }
            }
            if (unanswered.isEmpty()) {
                round.readyTopics.add(topic);
            } else {
                reasons.put(topic, "partitions " + unanswered + " do not answer ListOffsets yet (" + firstProblem
                        + ")");
            }
        }
    }

    /** Waits for one partition's ListOffsets answer; returns what went wrong, or {@code null} when it answered. */
    private static String probe(ListOffsetsResult offsets, TopicPartition tp, long budgetMillis, Round round)
            throws InterruptedException {
        try {
            offsets.partitionResult(tp).get(budgetMillis, TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            round.lastError = failFastUnlessRetriable(tp.topic(), e.getCause());
            return String.valueOf(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            round.lastError = e;
            return "listOffsets timed out";
        }
    }

    private static Throwable failFastUnlessRetriable(String topic, Throwable error) {
        if (error instanceof RetriableException) {
            return error;
        }
        throw new TopicNotReadyException("Topic '" + topic + "' cannot become ready: " + error, Set.of(topic), error);
    }

    private static long remainingMillis(long deadlineNanos) {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }

    private static String describe(Map<String, String> reasons) {
        StringBuilder text = new StringBuilder();
        reasons.forEach((topic, reason) -> {
            if (text.length() > 0) {
                text.append("; ");
            }
            text.append(topic).append(": ").append(reason);
        });
        return text.toString();
    }

    private static final class Round {
        final Set<String> readyTopics = new LinkedHashSet<>();
        Throwable lastError;
    }
}
