package dev.cairn.coordinator.app;

import java.util.List;

/**
 * The coordinator refused to start: Cairn's topics are not fit to run on ({@link TopicRules}). Its message lists
 * every refusal, one a line, each naming the topic, what was found and what to change; {@link CoordinatorMain}
 * prints it and exits with {@value CoordinatorMain#EXIT_REFUSED}.
 */
public final class TopicsRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> refusals;

    /** @param refusals what {@link TopicRules} refused, at least one */
    TopicsRefusedException(List<String> refusals) {
        super("The coordinator does not start: Cairn's topics are not fit to run on\n  - "
                + String.join("\n  - ", refusals));
        this.refusals = List.copyOf(refusals);
    }

    /** Every refusal, in the order of the message. */
    public List<String> refusals() {
        return refusals;
    }
}
