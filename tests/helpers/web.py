"""The browser tests' window sizes."""

VIEWPORTS = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}
# The three sizes every language is checked at (issue 14): a phone, a tablet, a laptop.
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 768, "height": 1024}, "laptop": {"width": 1280, "height": 800}}
