"""The blog's own checks, run by Wagtail's content checker beside its accessibility rules.

They look at markers the templates print: `data-content-check="card-image"` on every card and
hero picture, `data-content-check="body-image"` on every picture of a post's body that the
editor did not mark decorative, `data-hero-picture=""` on a post that has no hero picture
(optional, as imports need it, but asked for), and on every summary `data-summary-limit` with
`data-summary-fits`, which says "yes" only for a summary that is not empty and within the
limit. The checks reuse an evaluator axe ships with: a check given as function source would be
compiled by axe with `new Function`, which the admin's CSP (no 'unsafe-eval') refuses, and then
the checks panel runs no check at all."""

from wagtail.admin.userbar import ContentCheckerItem

CARD_ALT_RULE = "cedana-card-alt-text"
BODY_ALT_RULE = "cedana-body-image-alt-text"
SUMMARY_RULE = "cedana-summary-length"
HERO_RULE = "cedana-hero-picture"


class BlogContentCheckerItem(ContentCheckerItem):
    # The article's checks (headings, alt text, the summary) are for the full page; the card,
    # featured and social previews (templates/blog/previews/shell.html) offer them only an empty
    # element, as axe refuses a context that matches nothing. One selector: Wagtail chains the
    # entries of this list into a path of frames.
    axe_include = ["body:not(.preview-shell), .preview-shell__not-checked"]
    axe_run_only = [
        *ContentCheckerItem.axe_run_only,
        CARD_ALT_RULE,
        BODY_ALT_RULE,
        SUMMARY_RULE,
        HERO_RULE,
    ]
    axe_custom_rules = [
        *ContentCheckerItem.axe_custom_rules,
        {
            "id": CARD_ALT_RULE,
            "impact": "serious",
            "selector": 'img[data-content-check="card-image"]',
            "tags": ["best-practice"],
            "any": [f"{CARD_ALT_RULE}-check"],
            "enabled": True,
        },
        {
            # Axe's own image-alt rule accepts alt="", which is right only for decorative
            # pictures; the template marks the others.
            "id": BODY_ALT_RULE,
            "impact": "serious",
            "selector": 'img[data-content-check="body-image"]',
            "tags": ["best-practice"],
            "any": [f"{BODY_ALT_RULE}-check"],
            "enabled": True,
        },
        {
            "id": SUMMARY_RULE,
            "impact": "moderate",
            "selector": "[data-summary-limit]",
            "tags": ["best-practice"],
            "any": [f"{SUMMARY_RULE}-check"],
            "enabled": True,
        },
        {
            # A nudge, not a refusal: the post saves and publishes without one.
            "id": HERO_RULE,
            "impact": "moderate",
            "selector": "[data-hero-picture]",
            "tags": ["best-practice"],
            "any": [f"{HERO_RULE}-check"],
            "enabled": True,
        },
    ]
    axe_custom_checks = [
        *ContentCheckerItem.axe_custom_checks,
        {
            "id": f"{CARD_ALT_RULE}-check",
            "evaluate": "attr-non-space-content-evaluate",
            "options": {"attribute": "alt"},
        },
        {
            "id": f"{BODY_ALT_RULE}-check",
            "evaluate": "attr-non-space-content-evaluate",
            "options": {"attribute": "alt"},
        },
        {
            "id": f"{SUMMARY_RULE}-check",
            "evaluate": "attr-non-space-content-evaluate",
            "options": {"attribute": "data-summary-fits"},
        },
        {
            "id": f"{HERO_RULE}-check",
            "evaluate": "attr-non-space-content-evaluate",
            "options": {"attribute": "data-hero-picture"},
        },
    ]
    axe_messages = {
        **ContentCheckerItem.axe_messages,
        CARD_ALT_RULE: {
            "error_name": "Card picture has no alt text",
            "help_text": "Describe the hero image in “Hero image alt text” on the Content tab",
        },
        BODY_ALT_RULE: {
            "error_name": "Picture in the post has no alt text",
            "help_text": "Describe it in the picture block's “Alt text”, or tick “Decorative "
            "picture” if it adds nothing a reader would miss",
        },
        SUMMARY_RULE: {
            "error_name": "Summary is empty or too long",
            "help_text": "Write one or two sentences within the summary's character limit",
        },
        HERO_RULE: {
            "error_name": "Post has no hero picture",
            "help_text": "Choose a “Hero image” on the Content tab: the card, the featured slot "
            "and link previews show it. The post can be published without one",
        },
    }


def use_blog_content_checks(items):
    """Swap Wagtail's checker item for ours, wherever the userbar shows one."""
    for position, item in enumerate(items):
        if isinstance(item, ContentCheckerItem) and not isinstance(item, BlogContentCheckerItem):
            items[position] = BlogContentCheckerItem(in_editor=item.in_editor)
