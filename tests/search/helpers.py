"""Reading a search page the way a reader does: titles, excerpts, counts and facets."""

from bs4 import BeautifulSoup


def soup(response):
    return BeautifulSoup(response.content, "html.parser")


def result_titles(response):
    titles = soup(response).select(".search-result__title a")
    return [" ".join(a.get_text().split()) for a in titles]


def excerpts(response):
    return [p.decode_contents() for p in soup(response).select(".search-result__excerpt")]


def page_text(response):
    return " ".join(soup(response).get_text(" ").split())


def facet_counts(response):
    counts = {}
    for chip in soup(response).select(".search-facets .chip"):
        count = chip.select_one(".chip__count")
        if count:
            name = chip.get_text(" ", strip=True).rsplit(" ", 1)[0]
            counts[name] = int(count.get_text())
    return counts


def suggestion_titles(client, q):
    return [item["title"] for item in client.get("/search/suggest/", {"q": q}).json()["results"]]


def body(*paragraphs):
    return [{"type": "paragraph", "value": f"<p>{text}</p>"} for text in paragraphs]
