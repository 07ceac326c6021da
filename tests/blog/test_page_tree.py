from wagtail.test.utils import WagtailPageTestCase

from blog.models import BlogIndexPage, BlogPage
from home.models import HomePage


class PageTreeRules(WagtailPageTestCase):
    def test_the_blog_sits_under_the_home_page(self):
        self.assertAllowedParentPageTypes(BlogIndexPage, {HomePage})
        self.assertCanCreateAt(HomePage, BlogIndexPage)

    def test_posts_are_written_only_inside_a_blog(self):
        self.assertAllowedParentPageTypes(BlogPage, {BlogIndexPage})
        self.assertCanCreateAt(BlogIndexPage, BlogPage)
        self.assertCanNotCreateAt(HomePage, BlogPage)

    def test_a_blog_holds_only_posts_and_posts_hold_nothing(self):
        self.assertAllowedSubpageTypes(BlogIndexPage, {BlogPage})
        self.assertAllowedSubpageTypes(BlogPage, set())
