<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.11.0" name="marks" tilewidth="16" tileheight="16" tilecount="4" columns="2">
 <image source="marks.png" width="32" height="32"/>
 <tile id="1">
  <animation>
   <frame tileid="1" duration="100"/>
   <frame tileid="3" duration="200"/>
  </animation>
 </tile>
</tileset>
