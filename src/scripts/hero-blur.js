// Home hero: the background is blurred until the page is scrolled more than 50px (CSS does the rest).
const root = document.documentElement;
const update = () => root.classList.toggle('scrolled', scrollY > 50);
addEventListener('scroll', update, { passive: true });
update();
