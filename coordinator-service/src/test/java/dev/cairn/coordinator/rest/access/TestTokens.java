package dev.cairn.coordinator.rest.access;

import java.util.Map;

/** The tokens of the REST tests: {@code ops} may change every job, {@code ci} only jobs {@code ci-*}. */
public final class TestTokens {

    public static final String OPS = "ops-token-0123456789abcdef";
    public static final String CI = "ci-token-0123456789abcdef";

    private TestTokens() {
    }

    public static BearerTokens tokens() {
        return BearerTokens.parse(Map.of("ops.token", OPS, "ci.token", CI, "ci.jobs", "ci-*"), "test tokens");
    }

    /** Mutations for ops and ci, reads open. */
    public static AccessPolicy mutations() {
        return AccessPolicy.withTokens(tokens(), false);
    }

    /** Every request but health checks needs a token. */
    public static AccessPolicy readsToo() {
        return AccessPolicy.withTokens(tokens(), true);
    }
}
